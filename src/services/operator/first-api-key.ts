import { createHmac, hkdfSync } from "node:crypto";
import { API_KEY_PREFIX, hashToken, type IssuedToken } from "../../core/credentials.js";

const DISPLAY_CHARS = 6;

/**
 * The secret of an account's first API key when CreateAccount carries a request_id: derived
 * from the master key and the account's id instead of drawn at random, so a retry whose first
 * response was lost can be answered with the same working secret although only its hash is
 * stored. Without request_id the secret is random (credentials.ts).
 */
export function deriveFirstApiKey(masterKey: Buffer, accountId: string): IssuedToken {
  const key = Buffer.from(hkdfSync("sha256", masterKey, Buffer.alloc(0), "encore first api key", 32));
  const token = `${API_KEY_PREFIX}${createHmac("sha256", key).update(accountId).digest("base64url")}`;
  return { token, hash: hashToken(token), displayPrefix: token.slice(0, API_KEY_PREFIX.length + DISPLAY_CHARS) };
}
