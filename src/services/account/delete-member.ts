import { create } from "@bufbuild/protobuf";
import { type Empty, EmptySchema } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { DeleteMemberRequest } from "../../../gen/encore/account/v1/account_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { notFound } from "../../errors/status.js";
import { deleteMember } from "../../store/members.js";
import { readName } from "../management-access.js";
import { authorize } from "../principal.js";
import { refuseLastOwner } from "./last-owner.js";
import { memberNotFound } from "./update-member.js";

/**
 * Removes a member; their sessions are deleted with them and stop working at once. The
 * account's last owner member, with no owner key left, stays: LAST_OWNER (last-owner.ts).
 */
export function createDeleteMember(deps: ServiceDeps) {
  return async (request: DeleteMemberRequest, ctx: HandlerContext): Promise<Empty> => {
    const { accountId, memberId } = readName(resources.member, request.name, "name");
    authorize(ctx, "account.members.delete", accountId, memberNotFound(request.name));
    const outcome = await deleteMember(deps.db, accountId, memberId);
    if (outcome.kind === "absent") throw notFound(memberNotFound(request.name));
    if (outcome.kind === "lastOwner") throw refuseLastOwner(deps, request.name);
    return create(EmptySchema);
  };
}
