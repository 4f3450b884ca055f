import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListMembersRequest,
  ListMembersResponseSchema,
} from "../../../gen/encore/account/v1/account_service_pb.js";
import type { ServiceDeps } from "../deps.js";
import { createPageTokens, readPageSize } from "../page-token.js";
import { authorize } from "../principal.js";
import { toMember } from "./account-mapper.js";
import { parseAccountName } from "./account-names.js";
import { listMembers } from "./account-store.js";
import { accountNotFound } from "./get-account.js";

/** The account's members, paged by id (creation order). */
export function createListMembers(deps: ServiceDeps) {
  const pages = createPageTokens(deps.masterKey);
  return async (
    request: ListMembersRequest,
    ctx: HandlerContext,
  ): Promise<MessageInitShape<typeof ListMembersResponseSchema>> => {
    const accountId = parseAccountName(request.parent, "parent");
    authorize(ctx, "account.members.list", accountId, accountNotFound(request.parent));
    const size = readPageSize(request.pageSize);
    const scope = `members:${accountId}`;
    const after = pages.decode(scope, request.pageToken)?.[0];
    const rows = await listMembers(deps.db, accountId, { take: size + 1, after });
    const page = pages.page({ scope, rows, size, cursorOf: (row) => [row.id] });
    return { members: page.items.map(toMember), nextPageToken: page.nextPageToken };
  };
}
