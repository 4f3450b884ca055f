import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListGamesRequest,
  type ListGamesResponse,
  ListGamesResponseSchema,
} from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { listGames } from "../../store/game-records.js";
import { listAccountPage } from "../list-page.js";
import { toGame } from "./hosting-mapper.js";

/** ListGames: the account's games, oldest first (ids sort by creation). */
export function createListGames(deps: ServiceDeps) {
  return async (request: ListGamesRequest, ctx: HandlerContext): Promise<ListGamesResponse> => {
    const page = await listAccountPage(deps, ctx, request, {
      permission: "hosting.games.list",
      scope: "games",
      load: listGames,
    });
    return create(ListGamesResponseSchema, { games: page.items.map(toGame), nextPageToken: page.nextPageToken });
  };
}
