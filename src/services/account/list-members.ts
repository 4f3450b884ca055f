import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListMembersRequest,
  ListMembersResponseSchema,
} from "../../../gen/encore/account/v1/account_service_pb.js";
import { parseAccountName } from "../../domain/resource-names.js";
import { listMembers } from "../../store/members.js";
import { readName } from "../campaign/management-access.js";
import type { ServiceDeps } from "../deps.js";
import { createPageTokens } from "../page-token.js";
import { authorize } from "../principal.js";
import { toMember } from "./account-mapper.js";
import { ACCOUNT_SHAPE, accountNotFound } from "./get-account.js";
import { listById } from "./list-by-id.js";

/** The account's members, paged by id (creation order). */
export function createListMembers(deps: ServiceDeps) {
  const pages = createPageTokens(deps.masterKey);
  return async (
    request: ListMembersRequest,
    ctx: HandlerContext,
  ): Promise<MessageInitShape<typeof ListMembersResponseSchema>> => {
    const { accountId } = readName(parseAccountName(request.parent), "parent", ACCOUNT_SHAPE);
    authorize(ctx, "account.members.list", accountId, accountNotFound(request.parent));
    const page = await listById(pages, {
      scope: `members:${accountId}`,
      pageSize: request.pageSize,
      pageToken: request.pageToken,
      load: (next) => listMembers(deps.db, accountId, next),
    });
    return { members: page.items.map(toMember), nextPageToken: page.nextPageToken };
  };
}
