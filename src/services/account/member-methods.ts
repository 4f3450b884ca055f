import type { ServiceImpl } from "@connectrpc/connect";
import type { AccountService } from "../../../gen/encore/account/v1/account_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { newId } from "../../core/ids.js";
import { resources } from "../../domain/resource-names.js";
import { alreadyExists, invalidArgument } from "../../errors/status.js";
import { violates } from "../../store/constraint-violation.js";
import { deleteMember, findMember, insertMember, listMembers, updateMemberRole } from "../../store/members.js";
import { listInAccount } from "../list-page.js";
import { authorizeName, authorizeParent, loadAuthorized, readRequired, writtenOutcome } from "../management-access.js";
import { readRole, toMember } from "./account-mapper.js";
import { accountNotFound } from "./account-methods.js";
import { deleteOwnerGuarded, refuseLastOwner } from "./last-owner.js";

const memberNotFound = (name: string) => `Member "${name}" not found.`;

const MAX_EMAIL = 254;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

// Only the role changes (the email is immutable); an empty mask means `role` (AIP-134).
const UPDATABLE = new Set(["role", "*"]);

/** An account's members: users who sign in to the console. */
export function createMemberMethods(deps: ServiceDeps): MemberMethods {
  return {
    /** Adds a user by email with a role; one membership per email and account (ALREADY_EXISTS). */
    async createMember(request, ctx) {
      const accountId = authorizeParent(ctx, "account.members.create", request.parent, accountNotFound);
      const input = readRequired(request.member, "member");
      const email = readEmail(input.email);
      const role = readRole(input.role, "member.role");
      const now = deps.now();
      try {
        const row = await insertMember(deps.db, { id: newId(now), accountId, email, role, createTime: now });
        return toMember(row);
      } catch (error) {
        if (violates(error, "unique")) throw alreadyExists(`"${email}" is already a member of ${request.parent}.`);
        throw error;
      }
    },

    /** The account's members, paged by id (creation order). */
    listMembers: listInAccount(deps, {
      field: "members",
      permission: "account.members.list",
      load: listMembers,
      toItem: toMember,
      missing: accountNotFound,
    }),

    /**
     * Changes a member's role; their sessions act with the new role from the next call. Demoting
     * the account's last owner, with no owner key left, is refused LAST_OWNER (last-owner.ts).
     */
    async updateMember(request, ctx) {
      const input = readRequired(request.member, "member");
      const member = authorizeName(ctx, "account.members.update", resources.member, input.name, {
        field: "member.name",
        missing: memberNotFound,
      });
      const { accountId, memberId } = member.name;
      const paths = request.updateMask?.paths ?? [];
      const unknown = paths.find((path) => !UPDATABLE.has(path));
      if (unknown !== undefined) throw invalidArgument(`"updateMask" may name only "role", not "${unknown}".`);
      const role = readRole(input.role, "member.role");
      const current = await loadAuthorized(member, (n) => findMember(deps.db, n.accountId, n.memberId));
      if (input.email !== "" && input.email.trim().toLowerCase() !== current.email) {
        throw invalidArgument('"member.email" is immutable.');
      }
      const outcome = await updateMemberRole(deps.db, { accountId, id: memberId, role });
      return toMember(writtenOutcome(outcome, member, () => refuseLastOwner(deps, member.text)).value);
    },

    /**
     * Removes a member; their sessions are deleted with them and stop working at once. The
     * account's last owner member, with no owner key left, stays: LAST_OWNER (last-owner.ts).
     */
    deleteMember: deleteOwnerGuarded(deps, {
      permission: "account.members.delete",
      resource: resources.member,
      missing: memberNotFound,
      remove: (name) => deleteMember(deps.db, name.accountId, name.memberId),
    }),
  };
}

/** Emails compare case-insensitively, so they are kept lower-cased. */
function readEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  if (trimmed.length === 0 || trimmed.length > MAX_EMAIL || !EMAIL.test(trimmed)) {
    throw invalidArgument('"member.email" must be an email address.');
  }
  return trimmed;
}

type MemberMethods = Pick<
  ServiceImpl<typeof AccountService>,
  "createMember" | "listMembers" | "updateMember" | "deleteMember"
>;
