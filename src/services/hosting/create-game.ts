import type { HandlerContext } from "@connectrpc/connect";
import type { CreateGameRequest, Game } from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import { parseAccountName } from "../../domain/resource-names.js";
import { invalidArgument } from "../../errors/status.js";
import { insertGame } from "../../store/game-records.js";
import { notFoundMessage, readName } from "../campaign/management-access.js";
import type { ServiceDeps } from "../deps.js";
import { newId } from "../ids.js";
import { authorize } from "../principal.js";
import { toGame } from "./hosting-mapper.js";

/** CreateGame: the host's record of one of the studio's games (a campaign names one). */
export function createCreateGame(deps: ServiceDeps) {
  return async (request: CreateGameRequest, ctx: HandlerContext): Promise<Game> => {
    const { accountId } = readName(parseAccountName(request.parent), "parent", "accounts/{account}");
    authorize(ctx, "hosting.games.create", accountId, notFoundMessage(request.parent));
    const displayName = request.game?.displayName.trim() ?? "";
    if (displayName === "") throw invalidArgument('"game.displayName" is required.');
    const now = deps.now();
    return toGame(await insertGame(deps.db, { id: newId(now), accountId, displayName, createTime: now }));
  };
}
