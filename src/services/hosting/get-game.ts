import type { HandlerContext } from "@connectrpc/connect";
import type { Game, GetGameRequest } from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { findGame } from "../../store/game-records.js";
import { loadAuthorized, readName } from "../management-access.js";
import { toGame } from "./hosting-mapper.js";

/** GetGame. */
export function createGetGame(deps: ServiceDeps) {
  return async (request: GetGameRequest, ctx: HandlerContext): Promise<Game> => {
    const name = readName(resources.game, request.name, "name");
    const row = await loadAuthorized({ ctx, permission: "hosting.games.get", name, text: request.name }, (n) =>
      findGame(deps.db, n.accountId, n.gameId),
    );
    return toGame(row);
  };
}
