import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { Transfer_Mode, Transfer_State, TransferItem_State } from "../../gen/encore/campaign/v1/transfer_pb.js";
import { HostingService } from "../../gen/encore/hosting/v1/hosting_service_pb.js";
import { setRegionListingFails } from "../../src/store/resources.js";
import { refusal } from "../support/refusal.js";
import { DOLLAR } from "../support/seed.js";
import { type Studio, seedProject, seedResource, seedStudio } from "../support/seed-hosting.js";
import { type QuietServer, startQuietServer } from "./support/quiet-server.js";
import { metadataOf, responseOf, seedMixedProject } from "./support/transfer-fixture.js";

const T0 = new Date("2026-11-20T10:00:00Z");
const HOUR = 3_600_000;

describe("PlanTransfer and MODE_CONVERT", () => {
  let server: QuietServer;
  beforeAll(async () => {
    server = await startQuietServer(T0);
  });
  afterAll(() => server.close());

  const campaigns = (token: string) => server.client(CampaignService, token);

  async function cleanProject(studio: Studio) {
    const project = await seedProject(server.db, studio.accountId);
    const at = { createTime: server.clock.now, hourlyPriceNanos: DOLLAR, gameId: studio.gameId };
    const serverName = (await seedResource(server.db, studio.accountId, project.id, at)).name;
    const address = (
      await seedResource(server.db, studio.accountId, project.id, { ...at, kind: "ADDRESS", clientFacing: true })
    ).name;
    return { ...project, serverName, address };
  }

  it("plans a mixed project: every candidate, MODE_MOVE, a warning for each thing to know", async () => {
    const studio = await seedStudio(server.db);
    const mixed = await seedMixedProject(server.db, studio, { downRegion: "plan-down", createTime: server.clock.now });
    await setRegionListingFails(server.db, "plan-down", true);
    try {
      const plan = await campaigns(studio.tokens.ADMIN).planTransfer({ name: studio.name, sourceProject: mixed.name });
      expect(plan.sourceProject).toBe(mixed.name);
      expect(plan.recommendedMode).toBe(Transfer_Mode.MOVE);
      expect(plan.unlistedRegions).toEqual(["plan-down"]);
      const byName = new Map(plan.candidates.map((c) => [c.resource, c]));
      expect(byName.size).toBe(5);
      expect(byName.has(mixed.downRegionServer)).toBe(false);
      expect(byName.get(mixed.server)).toMatchObject({
        belongsToGame: true,
        clientFacing: false,
        movable: true,
        needsAcknowledgement: false,
      });
      expect(byName.get(mixed.address)).toMatchObject({ belongsToGame: true, clientFacing: true, movable: true });
      expect(byName.get(mixed.stoppedServer)).toMatchObject({ needsAcknowledgement: true });
      expect(byName.get(mixed.otherGamesServer)).toMatchObject({ belongsToGame: false });
      expect(byName.get(mixed.unmovableDisk)).toMatchObject({ movable: false });
      const warnings = plan.warnings.join("\n");
      for (const mention of [
        "plan-down",
        mixed.address,
        mixed.stoppedServer,
        mixed.otherGamesServer,
        mixed.unmovableDisk,
      ]) {
        expect(warnings).toContain(mention);
      }
      // Planning changes nothing.
      const still = await server.client(HostingService, studio.tokens.OWNER).getResource({ name: mixed.server });
      expect(still.name).toBe(mixed.server);
    } finally {
      await setRegionListingFails(server.db, "plan-down", false);
    }
  });

  it("recommends MODE_MOVE for a clean project while any region cannot be listed", async () => {
    const studio = await seedStudio(server.db);
    const project = await cleanProject(studio);
    // Over gRPC this time: the same implementation behind every protocol.
    const grpc = server.client(CampaignService, studio.tokens.OWNER, "grpc");
    const plan = () => grpc.planTransfer({ name: studio.name, sourceProject: project.name });
    expect((await plan()).recommendedMode).toBe(Transfer_Mode.CONVERT);
    await setRegionListingFails(server.db, "nowhere-1", true);
    try {
      expect(await plan()).toMatchObject({ recommendedMode: Transfer_Mode.MOVE, unlistedRegions: ["nowhere-1"] });
    } finally {
      await setRegionListingFails(server.db, "nowhere-1", false);
    }
  });

  it("converts within the call: the resources join the campaign's project and the campaign is ready", async () => {
    const studio = await seedStudio(server.db, { balanceNanos: 0n });
    const project = await cleanProject(studio);
    const funding = () => server.rest("POST", "/v1/public/funding:get", "", { campaignKey: studio.campaignKey });
    expect((await funding()).body.unavailableReason).toBe("CAMPAIGN_NOT_READY");
    server.clock.now = new Date(T0.getTime() + 2 * HOUR);

    const operation = await campaigns(studio.tokens.OWNER).startTransfer({
      name: studio.name,
      sourceProject: project.name,
      mode: Transfer_Mode.CONVERT,
      requestId: "convert-1",
    });
    expect(operation.done).toBe(true);
    expect(operation.name).toMatch(/^operations\/[0-9a-f]+$/);
    const transfer = metadataOf(operation);
    expect(transfer).toMatchObject({
      campaign: studio.name,
      sourceProject: project.name,
      mode: Transfer_Mode.CONVERT,
      state: Transfer_State.SUCCEEDED,
    });
    expect(transfer.items.map((i) => i.state)).toEqual([TransferItem_State.MOVED, TransferItem_State.MOVED]);
    expect(responseOf(operation).name).toBe(studio.name);

    // Both resources are the campaign project's now; their two hours so far were the source's.
    const moved = await server.db.resource.findMany({ where: { projectId: studio.projectId } });
    expect(moved).toHaveLength(2);
    const source = await server.db.project.findUniqueOrThrow({ where: { id: project.id } });
    expect(source.balanceNanos).toBe(-4n * DOLLAR);
    expect((await funding()).body.unavailableReason).not.toBe("CAMPAIGN_NOT_READY");

    // The same request id answers with the same operation; another start is ALREADY_TRANSFERRED.
    const again = await campaigns(studio.tokens.ADMIN).startTransfer({
      name: studio.name,
      sourceProject: project.name,
      mode: Transfer_Mode.CONVERT,
      requestId: "convert-1",
    });
    expect(again.name).toBe(operation.name);
    const repeat = campaigns(studio.tokens.OWNER).startTransfer({
      name: studio.name,
      sourceProject: project.name,
      mode: Transfer_Mode.CONVERT,
    });
    expect(await refusal(repeat)).toMatchObject({ code: Code.FailedPrecondition, reason: "ALREADY_TRANSFERRED" });

    // A transfer row exists: the campaign can no longer be deleted (spec 3.3).
    expect(await refusal(campaigns(studio.tokens.OWNER).deleteCampaign({ name: studio.name }))).toMatchObject({
      code: Code.FailedPrecondition,
      reason: "CAMPAIGN_TRANSFERRED",
    });
  });

  it("refuses MODE_CONVERT with CANNOT_CONVERT unless the fresh plan recommends it", async () => {
    const studio = await seedStudio(server.db);
    const mixed = await seedMixedProject(server.db, studio, {
      downRegion: "convert-down",
      createTime: server.clock.now,
    });
    const start = campaigns(studio.tokens.OWNER).startTransfer({
      name: studio.name,
      sourceProject: mixed.name,
      mode: Transfer_Mode.CONVERT,
    });
    expect(await refusal(start)).toMatchObject({ code: Code.FailedPrecondition, reason: "CANNOT_CONVERT" });
    expect(await server.db.transfer.count({ where: { campaignId: studio.campaignId } })).toBe(0);
  });

  it("starts over REST: POST :startTransfer answers the operation as canonical JSON", async () => {
    const studio = await seedStudio(server.db);
    const project = await cleanProject(studio);
    const res = await server.rest("POST", `/v1/${studio.name}:startTransfer`, studio.tokens.OWNER, {
      sourceProject: project.name,
      mode: "MODE_CONVERT",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      done: true,
      metadata: {
        "@type": "type.googleapis.com/encore.campaign.v1.Transfer",
        state: "STATE_SUCCEEDED",
        mode: "MODE_CONVERT",
      },
      response: { "@type": "type.googleapis.com/encore.campaign.v1.Campaign", name: studio.name },
    });
    const read = await server.rest("GET", `/v1/${res.body.name}`, studio.tokens.VIEWER);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it.each([
    ["billing", "BILLING"],
    ["a viewer", "VIEWER"],
  ] as const)("answers %s NOT_FOUND: transfers are the owner's and admin's (spec 5)", async (_, role) => {
    const studio = await seedStudio(server.db);
    const project = await cleanProject(studio);
    const client = campaigns(studio.tokens[role]);
    await expect(client.planTransfer({ name: studio.name, sourceProject: project.name })).rejects.toMatchObject({
      code: Code.NotFound,
    });
    const start = client.startTransfer({ name: studio.name, sourceProject: project.name, mode: Transfer_Mode.CONVERT });
    await expect(start).rejects.toMatchObject({ code: Code.NotFound, rawMessage: `${studio.name} was not found.` });
  });

  it("refuses a source project of another account (NOT_FOUND) and the campaign's own project (INVALID_ARGUMENT)", async () => {
    const studio = await seedStudio(server.db);
    const other = await seedStudio(server.db);
    const foreign = await seedProject(server.db, other.accountId);
    const owner = campaigns(studio.tokens.OWNER);
    await expect(owner.planTransfer({ name: studio.name, sourceProject: foreign.name })).rejects.toMatchObject({
      code: Code.NotFound,
    });
    const own = `accounts/${studio.accountId}/projects/${studio.projectId}`;
    await expect(owner.planTransfer({ name: studio.name, sourceProject: own })).rejects.toMatchObject({
      code: Code.InvalidArgument,
    });
  });
});
