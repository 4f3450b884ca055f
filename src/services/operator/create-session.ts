import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type CreateSessionRequest,
  type Session,
  SessionSchema,
} from "../../../gen/encore/operator/v1/operator_service_pb.js";
import { issueToken, SESSION_PREFIX } from "../../core/credentials.js";
import type { ServiceDeps } from "../../core/deps.js";
import { newId } from "../../core/ids.js";
import { resources } from "../../domain/resource-names.js";
import { invalidArgument, notFound } from "../../errors/status.js";
import { findMember } from "../../store/members.js";
import { insertSession } from "../../store/sessions.js";
import { readName } from "../management-access.js";
import { requireOperator } from "../principal.js";

// A session is the stand-in for a real identity provider's sign-in: 12 hours by default and
// at most, so a leaked token stops working on its own.
export const MAX_SESSION_SECONDS = 12n * 60n * 60n;

/** Issues a member's session; the token is in this response only, its SHA-256 is stored. */
export function createCreateSession(deps: ServiceDeps) {
  return async (request: CreateSessionRequest, ctx: HandlerContext): Promise<Session> => {
    requireOperator(ctx);
    const { accountId, memberId } = readName(resources.member, request.member, "member");
    const ttl = request.ttlSeconds === 0n ? MAX_SESSION_SECONDS : request.ttlSeconds;
    if (ttl < 0n || ttl > MAX_SESSION_SECONDS) {
      throw invalidArgument(`"ttlSeconds" must be between 1 and ${MAX_SESSION_SECONDS} (12 hours).`);
    }
    const member = await findMember(deps.db, accountId, memberId);
    if (!member) throw notFound(`Member "${request.member}" not found.`);
    const now = deps.now();
    const expireTime = new Date(now.getTime() + Number(ttl) * 1000);
    const secret = issueToken(SESSION_PREFIX);
    await insertSession(deps.db, { id: newId(now), memberId, tokenHash: secret.hash, expireTime, createTime: now });
    return create(SessionSchema, {
      token: secret.token,
      member: request.member,
      expireTime: timestampFromDate(expireTime),
    });
  };
}
