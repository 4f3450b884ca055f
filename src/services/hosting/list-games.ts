import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListGamesRequest,
  type ListGamesResponse,
  ListGamesResponseSchema,
} from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import { parseAccountName } from "../../domain/resource-names.js";
import { listGames } from "../../store/game-records.js";
import { notFoundMessage, readName } from "../campaign/management-access.js";
import type { ServiceDeps } from "../deps.js";
import { type PageTokens, readPageSize } from "../page-token.js";
import { authorize } from "../principal.js";
import { toGame } from "./hosting-mapper.js";

/** ListGames: the account's games, oldest first (ids sort by creation). */
export function createListGames(deps: ServiceDeps, tokens: PageTokens) {
  return async (request: ListGamesRequest, ctx: HandlerContext): Promise<ListGamesResponse> => {
    const { accountId } = readName(parseAccountName(request.parent), "parent", "accounts/{account}");
    authorize(ctx, "hosting.games.list", accountId, notFoundMessage(request.parent));
    const size = readPageSize(request.pageSize);
    const scope = `games:${accountId}`;
    const afterId = tokens.decode(scope, request.pageToken)?.[0];
    const rows = await listGames(deps.db, { accountId, afterId, take: size + 1 });
    const page = tokens.page({ scope, rows, size, cursorOf: (row) => [row.id] });
    return create(ListGamesResponseSchema, { games: page.items.map(toGame), nextPageToken: page.nextPageToken });
  };
}
