import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

// Publisher keys at rest (DESIGN 3): AES-256-GCM under ENCORE_MASTER_KEY, stored as
// iv (12 bytes) || tag (16 bytes) || ciphertext. Only a fingerprint ever leaves the service.

const IV_BYTES = 12;
const TAG_BYTES = 16;

export function sealSecret(masterKey: Buffer, secret: string): Uint8Array<ArrayBuffer> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", masterKey, iv);
  const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return new Uint8Array(Buffer.concat([iv, cipher.getAuthTag(), ciphertext]));
}

/** Throws when the box was not sealed under this key or was altered (GCM authentication). */
export function openSecret(masterKey: Buffer, box: Uint8Array): string {
  const bytes = Buffer.from(box);
  const decipher = createDecipheriv("aes-256-gcm", masterKey, bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
}

/**
 * Tells keys apart without revealing them: `sha256:` and the first 16 hex digits of the
 * key's SHA-256 (64 bits: enough to recognise a key, far too little to recover one).
 */
export function fingerprintSecret(secret: string): string {
  return `sha256:${createHash("sha256").update(secret, "utf8").digest("hex").slice(0, 16)}`;
}
