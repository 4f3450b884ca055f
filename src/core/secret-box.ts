import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from "node:crypto";
import { SecretKeyUnavailable } from "../errors/sealed-secret.js";

// Publisher keys at rest (DESIGN 3): AES-256-GCM under the master key, stored as
//   "ekm" 0x01 || master key id (8 bytes) || iv (12 bytes) || tag (16 bytes) || ciphertext.
// The key id says which master key sealed a box, so ENCORE_MASTER_KEY can be rotated: boxes
// are opened under ENCORE_MASTER_KEY or ENCORE_MASTER_KEY_PREVIOUS and sealed again under the
// first (docs/deploy.md). Boxes sealed before key ids (iv || tag || ciphertext) are still
// opened, by trying each key; GCM's tag tells the right one. Only a fingerprint of a publisher
// key, and the id of a master key, ever leave the service.

/** The master keys this process holds: it seals and signs under `current` only. */
export interface MasterKeys {
  /** ENCORE_MASTER_KEY: 32 bytes. */
  current: Buffer;
  /** ENCORE_MASTER_KEY_PREVIOUS, during a rotation: still opens and verifies, never seals. */
  previous?: Buffer;
}

const FORMAT = Buffer.from([0x65, 0x6b, 0x6d, 0x01]);
const KEY_ID_BYTES = 8;
/** The bytes before the iv: the format and the sealing master key's id. */
export const SEALED_HEADER_BYTES = FORMAT.length + KEY_ID_BYTES;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Names a master key without revealing it: the first 8 bytes of HMAC-SHA256(key, a fixed
 * label), in hex. Shown to the operator, stored in every box sealed under the key.
 */
export function masterKeyId(key: Buffer): string {
  return keyIdBytes(key).toString("hex");
}

/** The first bytes of every box sealed under `key` now (the re-encryption pass looks for others). */
export function sealedHeader(key: Buffer): Buffer {
  return Buffer.concat([FORMAT, keyIdBytes(key)]);
}

export function sealSecret(keys: MasterKeys, secret: string): Uint8Array<ArrayBuffer> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keys.current, iv);
  const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return new Uint8Array(Buffer.concat([sealedHeader(keys.current), iv, cipher.getAuthTag(), ciphertext]));
}

/**
 * The secret in `box`, opened under whichever of `keys` sealed it. Throws SecretKeyUnavailable
 * when neither did (or the box was altered): never a key, only key ids, in its message.
 */
export function openSecret(keys: MasterKeys, box: Uint8Array): string {
  const bytes = Buffer.from(box);
  const held = [keys.current, ...(keys.previous ? [keys.previous] : [])];
  const sealedBy = bytes.subarray(0, FORMAT.length).equals(FORMAT)
    ? bytes.subarray(FORMAT.length, SEALED_HEADER_BYTES)
    : undefined;
  if (sealedBy) {
    const key = held.find((candidate) => keyIdBytes(candidate).equals(sealedBy));
    const opened = key && tryOpen(key, bytes.subarray(SEALED_HEADER_BYTES));
    if (opened !== undefined) return opened;
  }
  // Sealed before key ids (or, once in 2^32, such a box whose iv happens to start like a header).
  for (const key of held) {
    const opened = tryOpen(key, bytes);
    if (opened !== undefined) return opened;
  }
  throw new SecretKeyUnavailable({
    sealedBy: sealedBy && held.every((key) => !keyIdBytes(key).equals(sealedBy)) ? sealedBy.toString("hex") : undefined,
    current: masterKeyId(keys.current),
    previous: keys.previous && masterKeyId(keys.previous),
  });
}

/** Whether `box` is sealed under `keys.current` already (so re-encryption leaves it). */
export function isSealedUnderCurrent(keys: MasterKeys, box: Uint8Array): boolean {
  return Buffer.from(box).subarray(0, SEALED_HEADER_BYTES).equals(sealedHeader(keys.current));
}

/**
 * Tells keys apart without revealing them: `sha256:` and the first 16 hex digits of the
 * key's SHA-256 (64 bits: enough to recognise a key, far too little to recover one).
 */
export function fingerprintSecret(secret: string): string {
  return `sha256:${createHash("sha256").update(secret, "utf8").digest("hex").slice(0, 16)}`;
}

// A master key's id is asked for at every box opened (every begin and complete): computed once
// per key. Weak, so a key dropped from the process is dropped here too.
const keyIds = new WeakMap<Buffer, Buffer>();

function keyIdBytes(key: Buffer): Buffer {
  let id = keyIds.get(key);
  if (id === undefined) {
    id = createHmac("sha256", key).update("encore master key id").digest().subarray(0, KEY_ID_BYTES);
    keyIds.set(key, id);
  }
  return id;
}

/** iv || tag || ciphertext opened under `key`; undefined when GCM's tag does not match. */
function tryOpen(key: Buffer, body: Buffer): string | undefined {
  if (body.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, body.subarray(0, IV_BYTES));
    decipher.setAuthTag(body.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(body.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
