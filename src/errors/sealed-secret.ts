/**
 * A stored secret (a studio's publisher key) that none of this process's master keys opens: it
 * was sealed under a master key the process was not given, or altered. A fault of the
 * deployment, not of the caller: it is logged with this message and answered INTERNAL. The
 * message names master keys by id only (secret-box.ts), never a key.
 */
export class SecretKeyUnavailable extends Error {
  constructor(keys: { sealedBy: string | undefined; current: string; previous: string | undefined }) {
    const held = `ENCORE_MASTER_KEY is ${keys.current}, ENCORE_MASTER_KEY_PREVIOUS ${keys.previous ?? "is unset"}`;
    super(
      keys.sealedBy
        ? `a publisher key is sealed under master key ${keys.sealedBy}, which this service does not hold (${held}): ` +
            "set ENCORE_MASTER_KEY_PREVIOUS to that key, then re-encrypt (npm run admin -- reencrypt-publisher-keys)"
        : `a publisher key opens under none of this service's master keys (${held}): it was sealed under another ` +
            "master key (before key ids were stored) or altered; set ENCORE_MASTER_KEY_PREVIOUS to the key it was sealed under",
    );
    this.name = "SecretKeyUnavailable";
  }
}
