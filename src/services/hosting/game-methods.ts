import type { ServiceImpl } from "@connectrpc/connect";
import type { HostingService } from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { findGame, insertGame, listGames } from "../../store/game-records.js";
import { listInAccount } from "../list-page.js";
import { authorizeName, loadAuthorized } from "../management-access.js";
import { createNamed } from "./create-named.js";
import { toGame } from "./hosting-mapper.js";

/** Games, as the host records them for the studio. */
export function createGameMethods(deps: ServiceDeps): GameMethods {
  return {
    /** CreateGame: the host's record of one of the studio's games (a campaign names one). */
    createGame: createNamed(deps, {
      field: "game",
      permission: "hosting.games.create",
      insert: insertGame,
      toItem: toGame,
    }),

    async getGame(request, ctx) {
      const game = authorizeName(ctx, "hosting.games.get", resources.game, request.name);
      return toGame(await loadAuthorized(game, (n) => findGame(deps.db, n.accountId, n.gameId)));
    },

    /** ListGames: the account's games, oldest first (ids sort by creation). */
    listGames: listInAccount(deps, {
      field: "games",
      permission: "hosting.games.list",
      load: listGames,
      toItem: toGame,
    }),
  };
}

type GameMethods = Pick<ServiceImpl<typeof HostingService>, "createGame" | "getGame" | "listGames">;
