import { anyUnpack } from "@bufbuild/protobuf/wkt";
import { type Campaign, CampaignSchema } from "../../../gen/encore/campaign/v1/campaign_pb.js";
import { type Transfer, TransferSchema } from "../../../gen/encore/campaign/v1/transfer_pb.js";
import type { Operation } from "../../../gen/google/longrunning/operations_pb.js";
import type { Db } from "../../../src/store/open-database.js";
import { DOLLAR } from "../../support/seed.js";
import { type Studio, seedGame, seedProject, seedResource } from "../../support/seed-hosting.js";

export function metadataOf(operation: Operation): Transfer {
  const transfer = operation.metadata && anyUnpack(operation.metadata, TransferSchema);
  if (!transfer) throw new Error("operation without Transfer metadata");
  return transfer;
}

export function responseOf(operation: Operation): Campaign {
  const campaign = operation.result.case === "response" ? anyUnpack(operation.result.value, CampaignSchema) : undefined;
  if (!campaign) throw new Error("operation without a Campaign response");
  return campaign;
}

export interface MixedProject {
  name: string;
  id: string;
  server: string;
  address: string;
  stoppedServer: string;
  otherGamesServer: string;
  unmovableDisk: string;
  downRegionServer: string;
}

/**
 * A source project with a bit of everything: the game's running server and client-facing
 * address, a stopped server whose disk cannot be copied, another game's server, an unmovable
 * disk, and a server in a region whose listing fails (the caller switches that on).
 */
export async function seedMixedProject(
  db: Db,
  studio: Studio,
  options: { downRegion: string; createTime: Date },
): Promise<MixedProject> {
  const { accountId, gameId } = studio;
  const downRegion = options.downRegion;
  const project = await seedProject(db, accountId);
  const at = { createTime: options.createTime, hourlyPriceNanos: DOLLAR };
  const other = await seedGame(db, accountId);
  return {
    ...project,
    server: (await seedResource(db, accountId, project.id, { ...at, gameId })).name,
    address: (await seedResource(db, accountId, project.id, { ...at, gameId, kind: "ADDRESS", clientFacing: true }))
      .name,
    stoppedServer: (
      await seedResource(db, accountId, project.id, { ...at, gameId, state: "STOPPED", diskCopyable: false })
    ).name,
    otherGamesServer: (await seedResource(db, accountId, project.id, { ...at, gameId: other })).name,
    unmovableDisk: (await seedResource(db, accountId, project.id, { ...at, gameId, kind: "DISK", movable: false }))
      .name,
    downRegionServer: (await seedResource(db, accountId, project.id, { ...at, gameId, region: downRegion })).name,
  };
}
