import { createCipheriv, randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { masterKeyId, openSecret, sealedHeader, sealSecret } from "../../src/core/secret-box.js";
import { paymentWebhookSecret } from "../../src/platform/billing/payment-signature.js";
import { signPaymentEvent } from "../../src/platform/billing/sign-payment-event.js";
import { type SteamSimulator, startSteamSimulator } from "../../src/sim/steam/start-steam-simulator.js";
import { mintPlayer, type SeededShop, seedShop } from "../support/seed-purchases.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import {
  startTestServer,
  TEST_OPERATOR_TOKEN,
  type TestServer,
  type TestServerOptions,
} from "../support/test-server.js";

// Rotating ENCORE_MASTER_KEY on a live service (docs/deploy.md): replicas with the new key and
// the old one as ENCORE_MASTER_KEY_PREVIOUS keep selling on links sealed under the old key,
// the re-encryption pass moves every publisher key to the new one, and then the old key can go.

const OLD = randomBytes(32);
const NEW = randomBytes(32);

/** A box as the service sealed it before boxes named their master key: iv || tag || ciphertext. */
function legacyBox(key: Buffer, secret: string): Uint8Array<ArrayBuffer> {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return new Uint8Array(Buffer.concat([iv, cipher.getAuthTag(), ciphertext]));
}

describe("master key rotation", { timeout: 120_000 }, () => {
  let sim: SteamSimulator;
  let db: TestDatabase;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    sim = await startSteamSimulator({ port: 0 });
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await db?.drop();
    await sim?.close();
  });

  /** A replica on the shared database (or `on`) with these keys. */
  const replica = async (
    keys: Pick<TestServerOptions, "masterKey" | "previousMasterKey" | "logger">,
    on: TestDatabase = db,
  ) => {
    const server = await startTestServer({
      env: { STEAM_API_URL: sim.url, STEAM_STORE_URL: sim.storeUrl, STEAM_TIMEOUT_MS: "1000" },
      db: on,
      ...keys,
    });
    if (on === db) servers.push(server);
    return server;
  };
  const operator = (server: TestServer) => server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN);
  const begin = async (server: TestServer, shop: SeededShop) => {
    const player = await mintPlayer(sim.control, shop.appId);
    return server.rest("POST", "/v1/public/purchases:begin", {
      campaignKey: shop.campaignKey,
      offerId: shop.offerId,
      authTicket: player.ticket,
    });
  };
  const complete = async (server: TestServer, shop: SeededShop, begun: { purchase: string; orderId: string }) => {
    await sim.control.approveOrder(begun.orderId);
    const done = await server.rest("POST", "/v1/public/purchases:complete", {
      campaignKey: shop.campaignKey,
      purchase: begun.purchase,
      orderId: begun.orderId,
      authorized: true,
    });
    return done.body.state as string;
  };
  const buy = async (server: TestServer, shop: SeededShop) => {
    const begun = await begin(server, shop);
    expect(begun.status).toBe(200);
    return complete(server, shop, begun.body);
  };
  const boxOf = async (shop: SeededShop, on: TestDatabase = db) =>
    Buffer.from(
      (await on.database.prisma.distributorLink.findUniqueOrThrow({ where: { id: shop.linkId } }))
        .publisherKeyEncrypted,
    );
  const webhookStatus = async (server: TestServer, masterKey: Buffer) =>
    (
      await signPaymentEvent({
        baseUrl: server.baseUrl,
        secret: paymentWebhookSecret(undefined, masterKey),
        checkoutSession: "accounts/a1/checkoutSessions/none",
      })
    ).status;

  it("keeps purchases working before, during and after, and leaves nothing under the old key", async () => {
    const prisma = db.database.prisma;
    const before = await replica({ masterKey: OLD });
    const shop = await seedShop(prisma, sim.control, OLD);
    // A link stored before boxes named their master key.
    const legacyShop = await seedShop(prisma, sim.control, OLD);
    await prisma.distributorLink.update({
      where: { id: legacyShop.linkId },
      data: { publisherKeyEncrypted: legacyBox(OLD, legacyShop.publisherKey) },
    });
    expect(await buy(before, shop)).toBe("STATE_CREDITED");
    expect(await buy(before, legacyShop)).toBe("STATE_CREDITED");
    const created = await operator(before).createAccount({ displayName: "Rotating", requestId: "rotation-1" });
    await operator(before).createAccount({ displayName: "Another" });
    const firstPage = await operator(before).listAccounts({ pageSize: 1 });
    expect(firstPage.nextPageToken).not.toBe("");

    // During: a replica with the new key, the old one as ENCORE_MASTER_KEY_PREVIOUS.
    const during = await replica({ masterKey: NEW, previousMasterKey: OLD });
    expect(await buy(during, shop)).toBe("STATE_CREDITED");
    expect(await buy(during, legacyShop)).toBe("STATE_CREDITED");
    // What the old key signed or derived still holds: a page token, a retried create's key, the webhook secret.
    const secondPage = await operator(during).listAccounts({ pageSize: 1, pageToken: firstPage.nextPageToken });
    expect(secondPage.accounts).toHaveLength(1);
    const retried = await operator(during).createAccount({ displayName: "Rotating", requestId: "rotation-1" });
    expect(retried.account?.name).toBe(created.account?.name);
    expect(retried.apiKey?.keyString).toBe(created.apiKey?.keyString);
    expect(await webhookStatus(during, OLD)).toBe(200);
    expect(await webhookStatus(during, NEW)).toBe(200);

    // More links than one batch of the pass, for two replicas to re-encrypt at once.
    const extra = Array.from({ length: 250 }, (_, i) => ({
      id: `rotation-link-${String(i).padStart(3, "0")}`,
      accountId: shop.accountId,
      displayName: `link ${i}`,
      sandbox: false,
      publisherKeyEncrypted: sealSecret({ current: OLD }, `EXTRA-PUBLISHER-KEY-${i}`),
      fingerprint: `sha256:${i}`,
    }));
    await prisma.distributorLink.createMany({ data: extra });
    // Webhook signing secrets are sealed the same way: one endpoint mid-rotation of
    // its secret (a previous one still signing), one after.
    await prisma.webhookEndpoint.createMany({
      data: ["rotating", "settled"].map((id) => ({
        id: `rotation-endpoint-${id}`,
        accountId: shop.accountId,
        url: "https://hooks.example.com/encore",
        eventTypes: ["purchase.credited"],
        secretEncrypted: sealSecret({ current: OLD }, `WEBHOOK-SECRET-${id}`),
        previousSecretEncrypted: id === "rotating" ? sealSecret({ current: OLD }, "WEBHOOK-SECRET-previous") : null,
      })),
    });
    const twin = await replica({ masterKey: NEW, previousMasterKey: OLD });

    // A purchase begun before the pass and completed after it.
    const pending = await begin(during, shop);
    expect(pending.status).toBe(200);
    const passes = await Promise.all([during, twin].map((server) => operator(server).reencryptPublisherKeys({})));
    // Each key re-encrypted exactly once between them (a pass may count one the other still held).
    expect(passes.reduce((sum, pass) => sum + pass.reencrypted, 0)).toBe(extra.length + 2);
    for (const pass of passes) expect(pass).toMatchObject({ masterKeyId: masterKeyId(NEW), unreadable: 0 });
    expect(passes.reduce((sum, pass) => sum + pass.webhookSecretsReencrypted, 0)).toBe(3);
    const endpoints = await prisma.webhookEndpoint.findMany({
      where: { id: { startsWith: "rotation-endpoint-" } },
      orderBy: { id: "asc" },
    });
    expect(
      endpoints.map((endpoint) => [
        openSecret({ current: NEW }, endpoint.secretEncrypted),
        endpoint.previousSecretEncrypted && openSecret({ current: NEW }, endpoint.previousSecretEncrypted),
      ]),
    ).toEqual([
      ["WEBHOOK-SECRET-rotating", "WEBHOOK-SECRET-previous"],
      ["WEBHOOK-SECRET-settled", null],
    ]);
    for (const sealed of [shop, legacyShop]) {
      expect((await boxOf(sealed)).subarray(0, 12)).toEqual(sealedHeader(NEW));
    }
    const stored = await prisma.distributorLink.findMany({
      where: { id: { startsWith: "rotation-link-" } },
      orderBy: { id: "asc" },
    });
    expect(stored.map((link) => openSecret({ current: NEW }, link.publisherKeyEncrypted))).toEqual(
      extra.map((_, i) => `EXTRA-PUBLISHER-KEY-${i}`),
    );
    expect(await complete(during, shop, pending.body)).toBe("STATE_CREDITED");
    expect(await operator(during).reencryptPublisherKeys({})).toMatchObject({
      reencrypted: 0,
      remaining: 0,
      webhookSecretsReencrypted: 0,
      webhookSecretsRemaining: 0,
    });

    // After: ENCORE_MASTER_KEY_PREVIOUS dropped.
    const after = await replica({ masterKey: NEW });
    expect(await buy(after, shop)).toBe("STATE_CREDITED");
    expect(await buy(after, legacyShop)).toBe("STATE_CREDITED");
    expect(await webhookStatus(after, OLD)).toBe(401);
  });

  it("without the previous key, refuses a publisher key still under it with a clear log line naming no key", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    // A database of its own: the only link on it is still under the old key.
    const own = await createTestDatabase();
    let service: TestServer | undefined;
    try {
      const shop = await seedShop(own.database.prisma, sim.control, OLD);
      const stored = await boxOf(shop, own);
      service = await replica({ masterKey: NEW, logger: pino({ level: "trace" }, sink) }, own);

      const refused = await begin(service, shop);
      expect(refused.status).toBe(500);
      expect(refused.body).toMatchObject({ code: 13, message: "Internal error." });
      const pass = await operator(service).reencryptPublisherKeys({});
      expect(pass).toMatchObject({ reencrypted: 0, unreadable: 1, remaining: 1 });
      expect(await boxOf(shop, own)).toEqual(stored);

      const log = lines.join("");
      expect(log).toContain(
        `a publisher key is sealed under master key ${masterKeyId(OLD)}, which this service does not hold ` +
          `(ENCORE_MASTER_KEY is ${masterKeyId(NEW)}, ENCORE_MASTER_KEY_PREVIOUS is unset)`,
      );
      expect(log).toContain(`"linkId":"${shop.linkId}"`);
      for (const key of [OLD, NEW]) {
        expect(log).not.toContain(key.toString("base64"));
        expect(log).not.toContain(key.toString("hex"));
      }
      expect(log).not.toContain(shop.publisherKey);
    } finally {
      await service?.close();
      await own.drop();
    }
  });
});
