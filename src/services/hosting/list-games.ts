import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListGamesRequest,
  type ListGamesResponse,
  ListGamesResponseSchema,
} from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { listGames } from "../../store/game-records.js";
import { listById } from "../list-page.js";
import { authorizeParent } from "../management-access.js";
import { toGame } from "./hosting-mapper.js";

/** ListGames: the account's games, oldest first (ids sort by creation). */
export function createListGames(deps: ServiceDeps) {
  return async (request: ListGamesRequest, ctx: HandlerContext): Promise<ListGamesResponse> => {
    const accountId = authorizeParent(ctx, "hosting.games.list", request.parent);
    const page = await listById(deps, request, {
      scope: `games:${accountId}`,
      load: ({ after, take }) => listGames(deps.db, { accountId, afterId: after, take }),
    });
    return create(ListGamesResponseSchema, { games: page.items.map(toGame), nextPageToken: page.nextPageToken });
  };
}
