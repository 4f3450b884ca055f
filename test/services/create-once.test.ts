import { randomBytes } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { CreateOfferRequestSchema } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { MasterKeys } from "../../src/core/secret-box.js";
import { createOnce, type Idempotency, readIdempotency } from "../../src/services/create-once.js";

// AIP-155 across a master key rotation: the request hash is keyed with the master key, so a
// create made before the rotation and retried during it must still be recognised as a retry.
const OLD = randomBytes(32);
const NEW = randomBytes(32);
const request = create(CreateOfferRequestSchema, {
  parent: "accounts/a/campaigns/c",
  offer: { displayName: "Founder" },
  requestId: "offer-1",
});

const replayUnder = (keys: MasterKeys, stored: Idempotency) =>
  createOnce({
    idempotency: readIdempotency(keys, CreateOfferRequestSchema, request),
    findEarlier: async () => ({ id: "offer-row", requestHash: stored.requestHash }),
    create: async () => ({ id: "a second row" }),
    resource: "offer",
  });

describe("an idempotent create retried across a master key rotation", () => {
  const storedBefore = readIdempotency({ current: OLD }, CreateOfferRequestSchema, request);

  it("answers the first create while the old key is ENCORE_MASTER_KEY_PREVIOUS", async () => {
    await expect(replayUnder({ current: NEW, previous: OLD }, storedBefore)).resolves.toEqual({
      id: "offer-row",
      requestHash: storedBefore.requestHash,
    });
  });

  it("hashes new creates under the new key only", () => {
    const during = readIdempotency({ current: NEW, previous: OLD }, CreateOfferRequestSchema, request);
    expect(during.requestHash).toBe(readIdempotency({ current: NEW }, CreateOfferRequestSchema, request).requestHash);
    expect(during.requestHash).not.toBe(storedBefore.requestHash);
  });

  it("is ALREADY_EXISTS once the old key is gone, as any reuse of the id is", async () => {
    const refused = await replayUnder({ current: NEW }, storedBefore).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConnectError);
    expect((refused as ConnectError).code).toBe(Code.AlreadyExists);
  });
});
