import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListMembersRequest,
  type ListMembersResponse,
  ListMembersResponseSchema,
} from "../../../gen/encore/account/v1/account_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { listMembers } from "../../store/members.js";
import { listAccountPage } from "../list-page.js";
import { toMember } from "./account-mapper.js";
import { accountNotFound } from "./get-account.js";

/** The account's members, paged by id (creation order). */
export function createListMembers(deps: ServiceDeps) {
  return async (request: ListMembersRequest, ctx: HandlerContext): Promise<ListMembersResponse> => {
    const page = await listAccountPage(deps, ctx, request, {
      permission: "account.members.list",
      scope: "members",
      load: listMembers,
      missing: accountNotFound,
    });
    return create(ListMembersResponseSchema, { members: page.items.map(toMember), nextPageToken: page.nextPageToken });
  };
}
