import { Writable } from "node:stream";
import { toJsonString } from "@bufbuild/protobuf";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DistributorLinkSchema } from "../../gen/encore/campaign/v1/distributor_link_pb.js";
import { refusal } from "../support/refusal.js";
import {
  awaitCampaign,
  createCampaign,
  type Harness,
  newAppId,
  newPublisherKey,
  type Studio,
  seedStudio,
  startHarness,
} from "./management-fixture.js";

// Spec 2.6, DESIGN 3: a publisher key is never returned and never logged; only its fingerprint
// leaves the service. Every line the service logs is captured at the most verbose level,
// without the logger's redaction, so the code itself is what is tested.

describe("publisher keys stay secret", () => {
  const lines: string[] = [];
  let harness: Harness;
  let studio: Studio;
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    harness = await startHarness({ logger: pino({ level: "trace" }, sink) });
    studio = await seedStudio(harness);
  });
  afterAll(() => harness.close());

  it("appears in no response, error, log line or stored column", async () => {
    const keys: string[] = [];
    const bodies: string[] = [];
    const record = (text: string) => bodies.push(text);

    // Create, read, list, rotate, refuse, verify: every path a key travels.
    const { campaign, linked } = await createCampaign(harness, studio);
    keys.push(linked.publisherKey);
    await awaitCampaign(studio.owner, campaign.name);
    const link = await studio.owner.getDistributorLink({ name: linked.link });
    record(toJsonString(DistributorLinkSchema, link));
    const listed = await harness.server.rest("GET", `/v1/${studio.name}/distributorLinks`, undefined, {
      authorization: `Bearer ${studio.tokens.VIEWER}`,
    });
    record(JSON.stringify(listed.body));
    // Write-only: not even an empty value comes back (spec 2.6).
    for (const returned of listed.body.distributorLinks) expect(returned.steam).toEqual({ sandbox: false });

    const rotated = await newPublisherKey(harness, linked.appIds);
    keys.push(rotated);
    record(
      toJsonString(
        DistributorLinkSchema,
        await studio.owner.updateDistributorLink({
          distributorLink: { name: linked.link, steam: { publisherKey: rotated } },
        }),
      ),
    );

    const unowned = await newPublisherKey(harness, [newAppId()]);
    keys.push(unowned);
    record(
      JSON.stringify(
        await refusal(
          studio.owner.updateDistributorLink({
            distributorLink: { name: linked.link, steam: { publisherKey: unowned } },
          }),
        ),
      ),
    );

    const rejected = "REJECTEDPUBLISHERKEY0001";
    keys.push(rejected);
    record(
      JSON.stringify(
        await refusal(
          studio.owner.createDistributorLink({
            parent: studio.name,
            distributorLink: { steam: { publisherKey: rejected } },
          }),
        ),
      ),
    );
    const rest = await harness.server.rest(
      "POST",
      `/v1/${studio.name}/distributorLinks`,
      { steam: { publisherKey: rejected } },
      { authorization: `Bearer ${studio.tokens.OWNER}` },
    );
    record(JSON.stringify(rest.body));

    await harness.sim.control.injectFault({ call: "GetPartnerAppListForWebAPIKey", kind: "rejectKey", times: 1 });
    record(JSON.stringify(await refusal(studio.owner.listListings({ parent: linked.link }))));
    await studio.owner.retryVerification({ name: campaign.name }).catch(() => undefined);

    expect(lines.length).toBeGreaterThan(5);
    for (const key of keys) {
      for (const body of bodies) expect(body).not.toContain(key);
      for (const line of lines) expect(line).not.toContain(key);
    }
    const stored = await harness.db.distributorLink.findFirstOrThrow({ where: { accountId: studio.accountId } });
    expect(Buffer.from(stored.publisherKeyEncrypted).toString("latin1")).not.toContain(rotated);
    expect(stored.fingerprint).toMatch(/^sha256:[0-9a-f]{16}$/);
  });
});
