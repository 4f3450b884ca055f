import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListMembersRequest,
  type ListMembersResponse,
  ListMembersResponseSchema,
} from "../../../gen/encore/account/v1/account_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { listMembers } from "../../store/members.js";
import { listById } from "../list-page.js";
import { authorizeParent } from "../management-access.js";
import { toMember } from "./account-mapper.js";
import { accountNotFound } from "./get-account.js";

/** The account's members, paged by id (creation order). */
export function createListMembers(deps: ServiceDeps) {
  return async (request: ListMembersRequest, ctx: HandlerContext): Promise<ListMembersResponse> => {
    const accountId = authorizeParent(ctx, "account.members.list", request.parent, accountNotFound);
    const page = await listById(deps, request, {
      scope: `members:${accountId}`,
      load: (next) => listMembers(deps.db, accountId, next),
    });
    return create(ListMembersResponseSchema, { members: page.items.map(toMember), nextPageToken: page.nextPageToken });
  };
}
