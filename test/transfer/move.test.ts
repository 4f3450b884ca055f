import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { Transfer_Mode, Transfer_State, TransferItem_State } from "../../gen/encore/campaign/v1/transfer_pb.js";
import { Operations } from "../../gen/google/longrunning/operations_pb.js";
import { setRegionListingFails } from "../../src/store/resources.js";
import { refusal } from "../support/refusal.js";
import { type Studio, seedStudio } from "../support/seed-hosting.js";
import { onPostgres } from "../support/test-database.js";
import { type QuietServer, startQuietServer } from "./support/quiet-server.js";
import { type MixedProject, metadataOf, responseOf, seedMixedProject } from "./support/transfer-fixture.js";

const T0 = new Date("2026-11-20T10:00:00Z");

describe("MODE_MOVE: in the background, item by item", () => {
  let server: QuietServer;
  beforeAll(async () => {
    server = await startQuietServer(T0);
  });
  afterAll(() => server.close());

  const campaigns = (token: string) => server.client(CampaignService, token);
  const operations = (token: string) => server.client(Operations, token);

  async function studioWithMixedProject(): Promise<{ studio: Studio; mixed: MixedProject }> {
    const studio = await seedStudio(server.db);
    return {
      studio,
      mixed: await seedMixedProject(server.db, studio, { downRegion: "move-down", createTime: server.clock.now }),
    };
  }

  const itemStates = async (name: string, token: string) =>
    metadataOf(await operations(token).getOperation({ name })).items.map((item) => item.state);

  it("needs resources (INVALID_ARGUMENT) and an acknowledgement of the plan's warnings", async () => {
    const { studio, mixed } = await studioWithMixedProject();
    const owner = campaigns(studio.tokens.OWNER);
    const base = { name: studio.name, sourceProject: mixed.name, mode: Transfer_Mode.MOVE };
    await expect(owner.startTransfer(base)).rejects.toMatchObject({ code: Code.InvalidArgument });
    expect(await refusal(owner.startTransfer({ ...base, resources: [mixed.server] }))).toMatchObject({
      code: Code.FailedPrecondition,
      reason: "WARNINGS_NOT_ACKNOWLEDGED",
    });
    for (const unfit of [mixed.otherGamesServer, mixed.unmovableDisk, `${mixed.name}/resources/nope`]) {
      const start = owner.startTransfer({ ...base, resources: [unfit], acknowledgeWarnings: true });
      await expect(start).rejects.toMatchObject({ code: Code.InvalidArgument });
    }
  });

  it("moves item by item, resumes after a restart, waits for an acknowledged fresh install, then is done", async () => {
    const { studio, mixed } = await studioWithMixedProject();
    const owner = campaigns(studio.tokens.OWNER);
    const resources = [mixed.server, mixed.address, mixed.stoppedServer];
    const operation = await owner.startTransfer({
      name: studio.name,
      sourceProject: mixed.name,
      mode: Transfer_Mode.MOVE,
      resources,
      acknowledgeWarnings: true,
      requestId: "move-1",
    });
    expect(operation.done).toBe(false);
    expect(metadataOf(operation)).toMatchObject({ mode: Transfer_Mode.MOVE, state: Transfer_State.RUNNING, resources });

    // While it runs: another start is TRANSFER_RUNNING; the same request id is the same operation.
    const other = owner.startTransfer({
      name: studio.name,
      sourceProject: mixed.name,
      mode: Transfer_Mode.MOVE,
      resources,
      acknowledgeWarnings: true,
    });
    expect(await refusal(other)).toMatchObject({ code: Code.Aborted, reason: "TRANSFER_RUNNING" });
    const same = await owner.startTransfer({
      name: studio.name,
      sourceProject: mixed.name,
      mode: Transfer_Mode.MOVE,
      requestId: "move-1",
    });
    expect(same.name).toBe(operation.name);

    // One replica moves one item, then is stopped (a deploy); a new one picks up where it left.
    const first = server.mover();
    expect(await first.runOnce({ maxItems: 1 })).toBe(1);
    await first.stop();
    const { PENDING, MOVED, AWAITING_ACKNOWLEDGEMENT, FRESH_INSTALL } = TransferItem_State;
    expect(await itemStates(operation.name, studio.tokens.VIEWER)).toEqual([MOVED, PENDING, PENDING]);
    const second = server.mover();
    expect(await second.runOnce()).toBe(2);
    expect(await itemStates(operation.name, studio.tokens.VIEWER)).toEqual([MOVED, MOVED, AWAITING_ACKNOWLEDGEMENT]);

    const waiting = await operations(studio.tokens.VIEWER).getOperation({ name: operation.name });
    expect(waiting.done).toBe(false);
    expect(metadataOf(waiting).state).toBe(Transfer_State.AWAITING_ACKNOWLEDGEMENT);
    expect(await second.runOnce()).toBe(0);

    // Only the waiting item can be acknowledged.
    const wrong = owner.acknowledgeTransferItem({ name: studio.name, resource: mixed.server });
    expect(await refusal(wrong)).toMatchObject({
      code: Code.FailedPrecondition,
      reason: "NOT_AWAITING_ACKNOWLEDGEMENT",
    });
    const byBilling = campaigns(studio.tokens.BILLING).acknowledgeTransferItem({
      name: studio.name,
      resource: mixed.stoppedServer,
    });
    await expect(byBilling).rejects.toMatchObject({ code: Code.NotFound });
    // Spec 5.3: a caller without the permission learns nothing about the item, waiting or not.
    const billingWrong = campaigns(studio.tokens.BILLING).acknowledgeTransferItem({
      name: studio.name,
      resource: mixed.server,
    });
    await expect(billingWrong).rejects.toMatchObject({ code: Code.NotFound });

    const campaign = await owner.acknowledgeTransferItem({ name: studio.name, resource: mixed.stoppedServer });
    expect(campaign.transfer?.state).toBe(Transfer_State.SUCCEEDED);
    expect(campaign.transfer?.items.map((i) => i.state)).toEqual([MOVED, MOVED, FRESH_INSTALL]);
    const again = owner.acknowledgeTransferItem({ name: studio.name, resource: mixed.stoppedServer });
    expect(await refusal(again)).toMatchObject({
      code: Code.FailedPrecondition,
      reason: "NOT_AWAITING_ACKNOWLEDGEMENT",
    });

    const done = await operations(studio.tokens.VIEWER).getOperation({ name: operation.name });
    expect(done.done).toBe(true);
    expect(responseOf(done).name).toBe(studio.name);
    const inCampaign = await server.db.resource.findMany({
      where: { projectId: studio.projectId },
      orderBy: { id: "asc" },
    });
    expect(inCampaign.map((r) => r.id).sort()).toEqual(resources.map((r) => r.split("/").pop()).sort());
    // The fresh install arrives stopped, with a new disk; what was not chosen stays behind.
    expect(inCampaign.find((r) => mixed.stoppedServer.endsWith(r.id))).toMatchObject({
      state: "STOPPED",
      diskCopyable: true,
    });
    expect(await server.db.resource.count({ where: { projectId: mixed.id } })).toBe(3);
    expect((await server.db.campaign.findUniqueOrThrow({ where: { id: studio.campaignId } })).readyTime).not.toBeNull();
    expect(
      await refusal(
        owner.startTransfer({ name: studio.name, sourceProject: mixed.name, mode: Transfer_Mode.MOVE, resources }),
      ),
    ).toMatchObject({
      code: Code.FailedPrecondition,
      reason: "ALREADY_TRANSFERRED",
    });
  });

  it("leaves a transfer leased by a replica that died alone until its lease runs out", async () => {
    const { studio, mixed } = await studioWithMixedProject();
    const operation = await campaigns(studio.tokens.ADMIN).startTransfer({
      name: studio.name,
      sourceProject: mixed.name,
      mode: Transfer_Mode.MOVE,
      resources: [mixed.server],
      acknowledgeWarnings: true,
    });
    const id = operation.name.slice("operations/".length);
    const leaseUntil = new Date(server.clock.now.getTime() + 30_000);
    await server.db.transfer.update({ where: { id }, data: { leaseUntil } });
    const mover = server.mover();
    expect(await mover.runOnce()).toBe(0);
    server.clock.now = new Date(leaseUntil.getTime() + 1);
    expect(await mover.runOnce()).toBe(1);
    expect((await operations(studio.tokens.OWNER).getOperation({ name: operation.name })).done).toBe(true);
  });

  it("fails the operation when an item vanished before it was moved", async () => {
    const { studio, mixed } = await studioWithMixedProject();
    const operation = await campaigns(studio.tokens.OWNER).startTransfer({
      name: studio.name,
      sourceProject: mixed.name,
      mode: Transfer_Mode.MOVE,
      resources: [mixed.server, mixed.address],
      acknowledgeWarnings: true,
    });
    await server.db.resource.delete({ where: { id: mixed.address.split("/").pop() } });
    await server.mover().runOnce();
    const failed = await operations(studio.tokens.OWNER).getOperation({ name: operation.name });
    expect(failed).toMatchObject({ done: true, result: { case: "error", value: { code: Code.FailedPrecondition } } });
    expect(metadataOf(failed).state).toBe(Transfer_State.FAILED);
    // Not ready, and a new transfer may start for what is left.
    const retry = await campaigns(studio.tokens.OWNER).startTransfer({
      name: studio.name,
      sourceProject: mixed.name,
      mode: Transfer_Mode.MOVE,
      resources: [mixed.stoppedServer],
      acknowledgeWarnings: true,
    });
    expect(retry.name).not.toBe(operation.name);
  });

  it("lists operations of the caller's campaigns, optionally by campaign, and reads one over REST", async () => {
    const { studio, mixed } = await studioWithMixedProject();
    const started = await campaigns(studio.tokens.OWNER).startTransfer({
      name: studio.name,
      sourceProject: mixed.name,
      mode: Transfer_Mode.MOVE,
      resources: [mixed.server],
      acknowledgeWarnings: true,
    });
    const listed = await operations(studio.tokens.VIEWER).listOperations({
      name: "operations",
      filter: `campaign = "${studio.name}"`,
    });
    expect(listed.operations.map((o) => o.name)).toEqual([started.name]);
    const stranger = await seedStudio(server.db);
    const none = await operations(stranger.tokens.OWNER).listOperations({ name: "operations" });
    expect(none.operations).toEqual([]);
    await expect(operations(stranger.tokens.OWNER).getOperation({ name: started.name })).rejects.toMatchObject({
      code: Code.NotFound,
    });
    const rest = await server.rest("GET", `/v1/${started.name}`, studio.tokens.OWNER);
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ name: started.name, done: false, metadata: { state: "STATE_RUNNING" } });
    await expect(
      operations(studio.tokens.OWNER).listOperations({ name: "operations", filter: "done = true" }),
    ).rejects.toMatchObject({
      code: Code.InvalidArgument,
    });
  });

  it("plans MODE_MOVE over a region that cannot be listed, and moves what was listed", async () => {
    const { studio, mixed } = await studioWithMixedProject();
    await setRegionListingFails(server.db, "move-down", true);
    try {
      const start = campaigns(studio.tokens.OWNER).startTransfer({
        name: studio.name,
        sourceProject: mixed.name,
        mode: Transfer_Mode.MOVE,
        resources: [mixed.downRegionServer],
        acknowledgeWarnings: true,
      });
      await expect(start).rejects.toMatchObject({ code: Code.InvalidArgument });
    } finally {
      await setRegionListingFails(server.db, "move-down", false);
    }
  });

  it("decides two concurrent starts one after the other: one runs, the other is TRANSFER_RUNNING (PostgreSQL)", async (context) => {
    if (!onPostgres(server.testDb)) context.skip();
    const { studio, mixed } = await studioWithMixedProject();
    const owner = campaigns(studio.tokens.OWNER);
    const start = (requestId: string) =>
      owner.startTransfer({
        name: studio.name,
        sourceProject: mixed.name,
        mode: Transfer_Mode.MOVE,
        resources: [mixed.server],
        acknowledgeWarnings: true,
        requestId,
      });
    const results = await Promise.allSettled(["a", "b", "c", "d"].map(start));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const rejected of results.filter((r) => r.status === "rejected")) {
      expect(await refusal(Promise.reject((rejected as PromiseRejectedResult).reason))).toMatchObject({
        code: Code.Aborted,
        reason: "TRANSFER_RUNNING",
      });
    }
    expect(await server.db.transfer.count({ where: { campaignId: studio.campaignId } })).toBe(1);
  });

  it("shares a transfer between replicas without moving an item twice (PostgreSQL)", async (context) => {
    if (!onPostgres(server.testDb)) context.skip();
    // Earlier tests' transfers are finished first, so this one is the only work there is.
    while ((await server.mover().runOnce()) > 0) {}
    const { studio, mixed } = await studioWithMixedProject();
    const operation = await campaigns(studio.tokens.OWNER).startTransfer({
      name: studio.name,
      sourceProject: mixed.name,
      mode: Transfer_Mode.MOVE,
      resources: [mixed.server, mixed.address],
      acknowledgeWarnings: true,
    });
    const handled = await Promise.all([server.mover(), server.mover(), server.mover()].map((m) => m.runOnce()));
    expect(handled.reduce((a, b) => a + b, 0)).toBe(2);
    expect((await operations(studio.tokens.OWNER).getOperation({ name: operation.name })).done).toBe(true);
  });
});

describe("MODE_MOVE with the public read cache on", () => {
  let server: QuietServer;
  beforeAll(async () => {
    // A minute on a clock that stays put: a cached answer would last the whole test.
    server = await startQuietServer(T0, { PUBLIC_READ_CACHE_MS: "60000" });
  });
  afterAll(() => server.close());

  it("makes funding:get forget its cached answer when the mover finishes the transfer", async () => {
    const studio = await seedStudio(server.db);
    const mixed = await seedMixedProject(server.db, studio, { downRegion: "cache-down", createTime: server.clock.now });
    await server.client(CampaignService, studio.tokens.OWNER).startTransfer({
      name: studio.name,
      sourceProject: mixed.name,
      mode: Transfer_Mode.MOVE,
      resources: [mixed.address],
      acknowledgeWarnings: true,
    });
    const funding = async () =>
      (await server.rest("POST", "/v1/public/funding:get", "", { campaignKey: studio.campaignKey })).body;
    expect(await funding()).toMatchObject({ unavailableReason: "CAMPAIGN_NOT_READY" });
    while ((await server.mover().runOnce()) > 0) {}
    expect((await funding()).unavailableReason).not.toBe("CAMPAIGN_NOT_READY");
  });
});
