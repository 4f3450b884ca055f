import type { HandlerContext } from "@connectrpc/connect";
import type { Member, UpdateMemberRequest } from "../../../gen/encore/account/v1/account_service_pb.js";
import { invalidArgument, notFound } from "../../errors/status.js";
import type { ServiceDeps } from "../deps.js";
import { authorize } from "../principal.js";
import { readRole, toMember } from "./account-mapper.js";
import { parseMemberName } from "./account-names.js";
import { findMember, updateMemberRole } from "./account-store.js";

export const memberNotFound = (name: string) => `Member "${name}" not found.`;

// Only the role changes (the email is immutable); an empty mask means `role` (AIP-134).
const UPDATABLE = new Set(["role", "*"]);

/** Changes a member's role; their sessions act with the new role from the next call. */
export function createUpdateMember(deps: ServiceDeps) {
  return async (request: UpdateMemberRequest, ctx: HandlerContext): Promise<Member> => {
    const input = request.member;
    if (!input) throw invalidArgument('Missing required field "member".');
    const { accountId, id } = parseMemberName(input.name, "member.name");
    authorize(ctx, "account.members.update", accountId, memberNotFound(input.name));
    const paths = request.updateMask?.paths ?? [];
    const unknown = paths.find((path) => !UPDATABLE.has(path));
    if (unknown !== undefined) throw invalidArgument(`"updateMask" may name only "role", not "${unknown}".`);
    const role = readRole(input.role, "member.role");
    const current = await findMember(deps.db, accountId, id);
    if (!current) throw notFound(memberNotFound(input.name));
    if (input.email !== "" && input.email.trim().toLowerCase() !== current.email) {
      throw invalidArgument('"member.email" is immutable.');
    }
    const row = await updateMemberRole(deps.db, accountId, id, role);
    if (!row) throw notFound(memberNotFound(input.name));
    return toMember(row);
  };
}
