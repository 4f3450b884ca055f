// What a simulated Steam handler returns, and the stock answers of reference 1.5/1.6:
// JSON bodies for 200, HTML pages for every non-200 status.

export type SimAnswer =
  | { readonly status: number; readonly json: unknown }
  | { readonly status: number; readonly html: string }
  /** OpenID's key-value form (reference 11), text/plain. */
  | { readonly status: number; readonly text: string }
  /** A redirect (302, 303) of the browser pages. */
  | { readonly status: number; readonly location: string };

/** The request as handlers see it: parameters from query (GET) or form body (POST), key from either place. */
export type SimRequest = { readonly params: URLSearchParams; readonly key: string | undefined };

export function jsonAnswer(json: unknown, status = 200): SimAnswer {
  return { status, json };
}

export function htmlAnswer(status: number, title: string, message: string): SimAnswer {
  return {
    status,
    html: `<html><head><title>${status} ${title}</title></head><body><h1>${title}</h1>${message}</body></html>`,
  };
}

/** 400 with Valve's wording (reference 1.3, seen in Steamworks.NET#476). */
export function missingParam(name: string): SimAnswer {
  return htmlAnswer(400, "Bad Request", `Required parameter '${name}' is missing`);
}

/** 403: wrong/missing publisher key or app outside the key's group (reference 1.2, 1.6). */
export function forbidden(): SimAnswer {
  return htmlAnswer(
    403,
    "Forbidden",
    "Access is denied. Retrying will not help. Please verify your <pre>key=</pre> parameter.",
  );
}

/** The first required parameter that is absent or empty, as a 400 answer. */
export function requireParams(params: URLSearchParams, names: readonly string[]): SimAnswer | undefined {
  const missing = names.find((name) => (params.get(name) ?? "") === "");
  return missing === undefined ? undefined : missingParam(missing);
}

/** ISteamMicroTxn success envelope (reference 1.5 style 1). */
export function txnOk(params: object): SimAnswer {
  return jsonAnswer({ response: { result: "OK", params } });
}

/** ISteamMicroTxn failure envelope; HTTP 200 (reference 1.5). */
export function txnFailure(errorcode: number, params?: object): SimAnswer {
  const error = { errorcode, errordesc: TXN_ERROR_DESCRIPTIONS[errorcode] ?? "Operation failed" };
  return jsonAnswer({ response: { result: "Failure", ...(params === undefined ? {} : { params }), error } });
}

// Appendix B wording (reference 3.3); errordesc is free text, clients key on errorcode.
const TXN_ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  2: "Operation failed",
  3: "Invalid parameter",
  5: "User has not approved transaction",
  6: "Transaction has already been committed",
  9: "Account does not exist or is temporarily unavailable",
  10: "Transaction has been denied by user",
  101: "Time limit for finalization has been exceeded",
  103: "Account not allowed to purchase",
};

/** Parses a uint32 parameter (appid, itemid); undefined when not a decimal in range. */
export function parseUint32(text: string | null): number | undefined {
  if (text === null || !/^\d{1,10}$/.test(text)) return undefined;
  const value = Number(text);
  return value <= 0xffff_ffff ? value : undefined;
}

/** True for a decimal uint64 (orderid, steamid), checked without going through a JS number. */
export function isUint64(text: string | null): text is string {
  return text !== null && /^\d{1,20}$/.test(text) && BigInt(text) <= 0xffff_ffff_ffff_ffffn;
}
