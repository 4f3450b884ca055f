import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type Game,
  GameSchema,
  type Project,
  ProjectSchema,
  type Resource,
  Resource_Kind,
  Resource_State,
  ResourceSchema,
} from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import { resources } from "../../domain/resource-names.js";
import type { GameRow } from "../../store/game-records.js";
import type { ProjectRow } from "../../store/projects.js";
import type { ResourceRow } from "../../store/resources.js";
import { toMoney } from "../money-mapper.js";

const kinds = {
  SERVER: Resource_Kind.SERVER,
  DISK: Resource_Kind.DISK,
  ADDRESS: Resource_Kind.ADDRESS,
} as const;
const states = { RUNNING: Resource_State.RUNNING, STOPPED: Resource_State.STOPPED } as const;

export function toGame(row: GameRow): Game {
  return create(GameSchema, {
    name: resources.game.format({ accountId: row.accountId, gameId: row.id }),
    displayName: row.displayName,
    createTime: timestampFromDate(row.createTime),
  });
}

export function toProject(row: ProjectRow): Project {
  return create(ProjectSchema, {
    name: resources.project.format({ accountId: row.accountId, projectId: row.id }),
    displayName: row.displayName,
    topUpOnly: row.topUpOnly,
    campaign:
      row.campaignId === null
        ? ""
        : resources.campaign.format({ accountId: row.accountId, campaignId: row.campaignId }),
    balance: toMoney(row.balanceNanos),
    createTime: timestampFromDate(row.createTime),
  });
}

export function toResource(accountId: string, row: ResourceRow): Resource {
  return create(ResourceSchema, {
    name: resources.resource.format({ accountId: accountId, projectId: row.projectId, resourceId: row.id }),
    displayName: row.displayName,
    kind: kinds[row.kind],
    region: row.region,
    game: row.gameId === null ? "" : resources.game.format({ accountId, gameId: row.gameId }),
    clientFacing: row.clientFacing,
    movable: row.movable,
    state: states[row.state],
    diskCopyable: row.diskCopyable,
    hourlyPrice: toMoney(row.hourlyPriceNanos),
    createTime: timestampFromDate(row.createTime),
  });
}
