import type { HandlerContext } from "@connectrpc/connect";
import type { Member, UpdateMemberRequest } from "../../../gen/encore/account/v1/account_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { invalidArgument, notFound } from "../../errors/status.js";
import { findMember, updateMemberRole } from "../../store/members.js";
import { readName } from "../management-access.js";
import { authorize } from "../principal.js";
import { readRole, toMember } from "./account-mapper.js";
import { refuseLastOwner } from "./last-owner.js";

export const memberNotFound = (name: string) => `Member "${name}" not found.`;

// Only the role changes (the email is immutable); an empty mask means `role` (AIP-134).
const UPDATABLE = new Set(["role", "*"]);

/**
 * Changes a member's role; their sessions act with the new role from the next call. Demoting
 * the account's last owner, with no owner key left, is refused LAST_OWNER (last-owner.ts).
 */
export function createUpdateMember(deps: ServiceDeps) {
  return async (request: UpdateMemberRequest, ctx: HandlerContext): Promise<Member> => {
    const input = request.member;
    if (!input) throw invalidArgument('Missing required field "member".');
    const { accountId, memberId } = readName(resources.member, input.name, "member.name");
    authorize(ctx, "account.members.update", accountId, memberNotFound(input.name));
    const paths = request.updateMask?.paths ?? [];
    const unknown = paths.find((path) => !UPDATABLE.has(path));
    if (unknown !== undefined) throw invalidArgument(`"updateMask" may name only "role", not "${unknown}".`);
    const role = readRole(input.role, "member.role");
    const current = await findMember(deps.db, accountId, memberId);
    if (!current) throw notFound(memberNotFound(input.name));
    if (input.email !== "" && input.email.trim().toLowerCase() !== current.email) {
      throw invalidArgument('"member.email" is immutable.');
    }
    const outcome = await updateMemberRole(deps.db, { accountId, id: memberId, role });
    if (outcome.kind === "absent") throw notFound(memberNotFound(input.name));
    if (outcome.kind === "lastOwner") throw refuseLastOwner(deps, input.name);
    return toMember(outcome.value);
  };
}
