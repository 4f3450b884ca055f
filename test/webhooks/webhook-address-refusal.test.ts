import { networkInterfaces } from "node:os";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebhookService } from "../../gen/encore/webhook/v1/webhook_service_pb.js";
import { refusal } from "../support/refusal.js";
import { type Studio, seedStudio } from "../support/seed-hosting.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { WEBHOOK_TEST_ENV } from "./webhook-receiver.js";

// docs/webhooks.md "Safety", over the wire: an endpoint URL whose host is an internal address in
// another form, a special-purpose address or this machine's own address is refused
// INVALID_ARGUMENT, saying what the address is. The service allows private and link-local
// addresses but not loopback, so this machine's private addresses are refused only as its own.

/** [URL host, what the refusal says the address is]: the security review's addresses. */
const reviewed: [string, RegExp][] = [
  ["[::7f00:1]", /IPv4-compatible address .* carrying 127\.0\.0\.1, a loopback address/],
  ["[64:ff9b::7f00:1]", /NAT64 address .* carrying 127\.0\.0\.1, a loopback address/],
  ["[2002:7f00:1::1]", /6to4 address .* carrying 127\.0\.0\.1, a loopback address/],
  ["192.0.0.1", /192\.0\.0\.1 is a reserved address \(IETF protocol assignments, RFC 6890\)/],
  ["198.18.0.1", /198\.18\.0\.1 is a reserved address \(benchmarking, RFC 2544\)/],
  ["192.0.2.1", /192\.0\.2\.1 is a reserved address \(documentation, RFC 5737\)/],
];

/** This machine's addresses other than loopback, as URL hosts. */
const ownHosts = Object.values(networkInterfaces())
  .flatMap((addresses) => addresses ?? [])
  .filter((entry) => !entry.internal)
  .map((entry) => (entry.family === "IPv6" ? `[${entry.address}]` : entry.address));

describe("webhook endpoint address refusals", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { ...WEBHOOK_TEST_ENV, WEBHOOK_ALLOW_ADDRESSES: "private,link-local" } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const create = (studio: Studio, host: string) =>
    server.client(WebhookService, "connect", studio.tokens.OWNER).createWebhookEndpoint({
      parent: `accounts/${studio.accountId}`,
      webhookEndpoint: { url: `http://${host}/hook`, eventTypes: ["settlement.recorded"] },
    });

  it.each(reviewed)("refuses %s over Connect and REST, saying what it is", async (host, what) => {
    const studio = await seedStudio(server.db.database.prisma);
    const connect = await refusal(create(studio, host));
    expect(connect.code).toBe(Code.InvalidArgument);
    expect(connect.message).toMatch(what);
    const rest = await server.rest(
      "POST",
      `/v1/accounts/${studio.accountId}/webhookEndpoints`,
      { url: `http://${host}/hook`, eventTypes: ["settlement.recorded"] },
      { authorization: `Bearer ${studio.tokens.OWNER}` },
    );
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ code: Code.InvalidArgument });
    expect(rest.body.message).toMatch(what);
    const listed = await server
      .client(WebhookService, "connect", studio.tokens.OWNER)
      .listWebhookEndpoints({ parent: `accounts/${studio.accountId}` });
    expect(listed.webhookEndpoints).toEqual([]);
  });

  // Only a machine without a network interface besides loopback has none to test.
  it.skipIf(ownHosts.length === 0)("refuses this machine's own interface addresses as loopback", async () => {
    const studio = await seedStudio(server.db.database.prisma);
    for (const host of ownHosts) {
      const refused = await refusal(create(studio, host));
      expect(refused.code, host).toBe(Code.InvalidArgument);
      expect(refused.message, host).toMatch(/this machine's own address \(judged as loopback\)/);
    }
  });
});
