import { create } from "@bufbuild/protobuf";
import { type Empty, EmptySchema } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { DeleteMemberRequest } from "../../../gen/encore/account/v1/account_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { deleteMember } from "../../store/members.js";
import { authorizeName } from "../management-access.js";
import { ownerGuardedValue } from "./last-owner.js";
import { memberNotFound } from "./update-member.js";

/**
 * Removes a member; their sessions are deleted with them and stop working at once. The
 * account's last owner member, with no owner key left, stays: LAST_OWNER (last-owner.ts).
 */
export function createDeleteMember(deps: ServiceDeps) {
  return async (request: DeleteMemberRequest, ctx: HandlerContext): Promise<Empty> => {
    const member = authorizeName(ctx, "account.members.delete", resources.member, request.name, {
      missing: memberNotFound,
    });
    ownerGuardedValue(deps, await deleteMember(deps.db, member.name.accountId, member.name.memberId), member);
    return create(EmptySchema);
  };
}
