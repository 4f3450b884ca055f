import type { HandlerContext } from "@connectrpc/connect";
import type { CreateMemberRequest, Member } from "../../../gen/encore/account/v1/account_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { newId } from "../../core/ids.js";
import { alreadyExists, invalidArgument } from "../../errors/status.js";
import { violates } from "../../store/constraint-violation.js";
import { insertMember } from "../../store/members.js";
import { authorizeParent } from "../management-access.js";
import { readRole, toMember } from "./account-mapper.js";
import { accountNotFound } from "./get-account.js";

const MAX_EMAIL = 254;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Adds a user by email with a role; one membership per email and account (ALREADY_EXISTS). */
export function createCreateMember(deps: ServiceDeps) {
  return async (request: CreateMemberRequest, ctx: HandlerContext): Promise<Member> => {
    const accountId = authorizeParent(ctx, "account.members.create", request.parent, accountNotFound);
    const input = request.member;
    if (!input) throw invalidArgument('Missing required field "member".');
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
