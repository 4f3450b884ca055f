// Steam returns 64-bit ids as JSON strings (reference 1.4), but older method versions and some
// proxies emit them as bare numbers, which JSON.parse would round past 2^53. Bare digits in the
// known uint64 fields are quoted before parsing so every id survives as its exact decimal string.

const UINT64_FIELDS = ["orderid", "transid", "steamid", "ownersteamid", "gid", "agreementid"];

const BARE_UINT64 = new RegExp(`"(${UINT64_FIELDS.join("|")})"(\\s*):(\\s*)(\\d+)(?=\\s*[,}\\]])`, "g");

/** JSON.parse that keeps uint64 fields as strings; throws SyntaxError like JSON.parse. */
export function parseSteamJson(text: string): unknown {
  return JSON.parse(text.replace(BARE_UINT64, '"$1"$2:$3"$4"'));
}
