import { createCipheriv, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isSealedUnderCurrent, masterKeyId, openSecret, sealedHeader, sealSecret } from "../../src/core/secret-box.js";
import { SecretKeyUnavailable } from "../../src/errors/sealed-secret.js";

// Publisher keys at rest under rotating master keys (docs/deploy.md, rotating the master key).
const OLD = randomBytes(32);
const NEW = randomBytes(32);
const SECRET = "PUBLISHERKEY0123456789ABCDEF";

/** A box as the service sealed it before boxes named their key: iv || tag || ciphertext. */
function legacyBox(key: Buffer, secret: string): Uint8Array {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return new Uint8Array(Buffer.concat([iv, cipher.getAuthTag(), ciphertext]));
}

const unavailable = (open: () => unknown): SecretKeyUnavailable => {
  try {
    open();
  } catch (error) {
    if (error instanceof SecretKeyUnavailable) return error;
    throw error;
  }
  throw new Error("it opened");
};

describe("the secret box", () => {
  it("names the master key it was sealed under, by an id that is not the key", () => {
    const box = sealSecret({ current: OLD }, SECRET);
    expect(Buffer.from(box).subarray(0, 12)).toEqual(sealedHeader(OLD));
    expect(masterKeyId(OLD)).toMatch(/^[0-9a-f]{16}$/);
    expect(masterKeyId(OLD)).not.toBe(masterKeyId(NEW));
    expect(OLD.toString("hex")).not.toContain(masterKeyId(OLD));
    expect(isSealedUnderCurrent({ current: OLD }, box)).toBe(true);
    expect(isSealedUnderCurrent({ current: NEW, previous: OLD }, box)).toBe(false);
  });

  it("opens a box under the previous key during a rotation, and seals only under the current one", () => {
    const old = sealSecret({ current: OLD }, SECRET);
    const rotating = { current: NEW, previous: OLD };
    expect(openSecret(rotating, old)).toBe(SECRET);
    const again = sealSecret(rotating, openSecret(rotating, old));
    expect(isSealedUnderCurrent(rotating, again)).toBe(true);
    expect(openSecret({ current: NEW }, again)).toBe(SECRET);
  });

  it("still opens boxes sealed before key ids, under either key", () => {
    expect(openSecret({ current: OLD }, legacyBox(OLD, SECRET))).toBe(SECRET);
    expect(openSecret({ current: NEW, previous: OLD }, legacyBox(OLD, SECRET))).toBe(SECRET);
    expect(isSealedUnderCurrent({ current: OLD }, legacyBox(OLD, SECRET))).toBe(false);
  });

  it("refuses a box sealed under a key it does not hold, naming key ids and never a key", () => {
    const error = unavailable(() => openSecret({ current: NEW }, sealSecret({ current: OLD }, SECRET)));
    expect(error.message).toContain(`sealed under master key ${masterKeyId(OLD)}, which this service does not hold`);
    expect(error.message).toContain(`ENCORE_MASTER_KEY is ${masterKeyId(NEW)}, ENCORE_MASTER_KEY_PREVIOUS is unset`);
    const legacy = unavailable(() => openSecret({ current: NEW }, legacyBox(OLD, SECRET)));
    expect(legacy.message).toMatch(/opens under none of this service's master keys/);
    for (const message of [error.message, legacy.message, String(error.stack), String(legacy.stack)]) {
      for (const key of [OLD, NEW]) {
        expect(message).not.toContain(key.toString("base64"));
        expect(message).not.toContain(key.toString("hex"));
      }
      expect(message).not.toContain(SECRET);
    }
  });

  it("refuses an altered box", () => {
    const box = sealSecret({ current: OLD }, SECRET);
    box[box.length - 1] = (box[box.length - 1] ?? 0) ^ 1;
    expect(() => openSecret({ current: OLD }, box)).toThrow(SecretKeyUnavailable);
  });
});
