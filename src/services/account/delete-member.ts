import type { MessageInitShape } from "@bufbuild/protobuf";
import type { EmptySchema } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { DeleteMemberRequest } from "../../../gen/encore/account/v1/account_service_pb.js";
import { notFound } from "../../errors/status.js";
import type { ServiceDeps } from "../deps.js";
import { authorize } from "../principal.js";
import { parseMemberName } from "./account-names.js";
import { deleteMember } from "./account-store.js";
import { memberNotFound } from "./update-member.js";

/** Removes a member; their sessions are deleted with them and stop working at once. */
export function createDeleteMember(deps: ServiceDeps) {
  return async (request: DeleteMemberRequest, ctx: HandlerContext): Promise<MessageInitShape<typeof EmptySchema>> => {
    const { accountId, id } = parseMemberName(request.name);
    authorize(ctx, "account.members.delete", accountId, memberNotFound(request.name));
    if (!(await deleteMember(deps.db, accountId, id))) throw notFound(memberNotFound(request.name));
    return {};
  };
}
