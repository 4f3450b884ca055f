import type { Session } from "../../gen/prisma/client.js";
import type { DbClient } from "./db-client.js";

// Members' sessions: only the SHA-256 of a token is kept. An expired session no longer
// authenticates (server/interceptors/authenticate.ts) and is deleted by the session purge.

export async function insertSession(db: DbClient, session: Session): Promise<void> {
  await db.session.create({ data: session });
}

/** The session whose token hashes to `tokenHash`, with its member; undefined when none or expired by `now`. */
export async function findLiveSession(db: DbClient, tokenHash: string, now: Date) {
  const session = await db.session.findUnique({
    where: { tokenHash },
    select: { id: true, expireTime: true, member: { select: { id: true, accountId: true, role: true } } },
  });
  return session && session.expireTime > now ? session : undefined;
}

/**
 * Deletes every session expired by `now` (the same `expire_time <= now` that stops it
 * authenticating); how many went. Idempotent, so replicas may run it at the same time.
 */
export async function deleteExpiredSessions(db: DbClient, now: Date): Promise<number> {
  const { count } = await db.session.deleteMany({ where: { expireTime: { lte: now } } });
  return count;
}
