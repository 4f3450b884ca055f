import type { HandlerContext } from "@connectrpc/connect";
import type { CreateGameRequest, Game } from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { newId } from "../../core/ids.js";
import { insertGame } from "../../store/game-records.js";
import { readDisplayName } from "../display-name.js";
import { authorizeParent } from "../management-access.js";
import { toGame } from "./hosting-mapper.js";

/** CreateGame: the host's record of one of the studio's games (a campaign names one). */
export function createCreateGame(deps: ServiceDeps) {
  return async (request: CreateGameRequest, ctx: HandlerContext): Promise<Game> => {
    const accountId = authorizeParent(ctx, "hosting.games.create", request.parent);
    const displayName = readDisplayName(request.game?.displayName.trim() ?? "", "game.displayName", { required: true });
    const now = deps.now();
    return toGame(await insertGame(deps.db, { id: newId(now), accountId, displayName, createTime: now }));
  };
}
