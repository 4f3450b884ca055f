import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { Transfer_Mode } from "../../gen/encore/campaign/v1/transfer_pb.js";
import { WebhookService } from "../../gen/encore/webhook/v1/webhook_service_pb.js";
import { type Studio, seedStudio } from "../support/seed-hosting.js";
import { type QuietServer, startQuietServer } from "../transfer/support/quiet-server.js";
import { seedMixedProject } from "../transfer/support/transfer-fixture.js";
import { deliveryReplica, drain, type Receiver, startReceiver, WEBHOOK_TEST_ENV } from "./webhook-receiver.js";

// The transfer events (waiting for an acknowledgement, done, failed) and the runway
// alert, on a service whose mover, metering and delivery the test runs on its own clock.

const T0 = new Date("2026-11-20T10:00:00Z");
const HOUR = 3_600_000;

describe("transfer and runway webhook events", () => {
  let server: QuietServer;
  let receiver: Receiver;
  beforeAll(async () => {
    server = await startQuietServer(T0, WEBHOOK_TEST_ENV);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  async function studioWithEndpoint() {
    const studio = await seedStudio(server.db);
    const mixed = await seedMixedProject(server.db, studio, { downRegion: "wh-down", createTime: server.clock.now });
    await server.client(WebhookService, studio.tokens.ADMIN).createWebhookEndpoint({
      parent: `accounts/${studio.accountId}`,
      webhookEndpoint: {
        url: receiver.url,
        eventTypes: [
          "transfer.succeeded",
          "transfer.awaiting_acknowledgement",
          "transfer.failed",
          "campaign.runway_low",
        ],
      },
    });
    return { studio, mixed, owner: server.client(CampaignService, studio.tokens.OWNER) };
  }

  const delivered = async (studio: Studio) => {
    await drain(deliveryReplica(server.db, server.clock));
    return receiver.received
      .filter((r) => r.envelope.account === `accounts/${studio.accountId}`)
      .map((r) => r.envelope);
  };

  it("tells of a transfer waiting for an acknowledgement, then done; and of a runway falling below its threshold once", async () => {
    const { studio, mixed, owner } = await studioWithEndpoint();
    await owner.startTransfer({
      name: studio.name,
      sourceProject: mixed.name,
      mode: Transfer_Mode.MOVE,
      resources: [mixed.server, mixed.address, mixed.stoppedServer],
      acknowledgeWarnings: true,
    });
    const mover = server.mover();
    while ((await mover.runOnce()) > 0) {}
    expect((await delivered(studio)).map((e) => e.type)).toEqual(["transfer.awaiting_acknowledgement"]);
    await owner.acknowledgeTransferItem({ name: studio.name, resource: mixed.stoppedServer });
    const done = await delivered(studio);
    expect(done.map((e) => e.type)).toEqual(["transfer.awaiting_acknowledgement", "transfer.succeeded"]);
    expect(done[1]?.data).toMatchObject({ campaign: studio.name, state: "STATE_SUCCEEDED" });

    // The campaign's project now pays for the servers it received; with nothing in it, its
    // runway is 0 days, below the 10 the studio asked to hear about: one event, however often
    // the metering runs while it stays below.
    await owner.updateCampaign({
      campaign: { name: studio.name, runwayAlertDays: 10 },
      updateMask: { paths: ["runway_alert_days"] },
    });
    for (let hour = 1; hour <= 3; hour += 1) {
      server.clock.now = new Date(T0.getTime() + hour * HOUR + 1);
      await server.metering().runOnce();
    }
    const alerts = (await delivered(studio)).filter((e) => e.type === "campaign.runway_low");
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.data).toMatchObject({ name: `${studio.name}/funding`, runwayDays: "0" });
  });

  it("tells of a failed transfer", async () => {
    const { studio, mixed, owner } = await studioWithEndpoint();
    await owner.startTransfer({
      name: studio.name,
      sourceProject: mixed.name,
      mode: Transfer_Mode.MOVE,
      resources: [mixed.server, mixed.address],
      acknowledgeWarnings: true,
    });
    await server.db.resource.delete({ where: { id: mixed.address.split("/").pop() } });
    await server.mover().runOnce();
    const events = await delivered(studio);
    expect(events.map((e) => e.type)).toEqual(["transfer.failed"]);
    expect(events[0]?.data).toMatchObject({ campaign: studio.name, state: "STATE_FAILED" });
  });
});
