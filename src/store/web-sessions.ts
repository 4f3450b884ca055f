import type { WebSession as WebSessionModel } from "../../gen/prisma/client.js";
import { violates } from "./constraint-violation.js";
import type { DbClient } from "./db-client.js";

// The funding page's browser sessions (docs/game-integration.md, "Funding from the web"): only
// the SHA-256 of a cookie's token is kept. An expired session is never read as live and is
// deleted by the web session purge, with the OpenID nonces past their window.

/**
 * What a live session tells: the OpenID sign-in under way (`signInState`, the state its
 * return_to carries), if any, and the player Steam vouched for once signed in (`steamId`).
 */
const LIVE = { id: true, signInState: true, steamId: true } as const;

export type WebSession = Pick<WebSessionModel, keyof typeof LIVE>;

export async function insertWebSession(
  db: DbClient,
  session: { id: string; tokenHash: string; signInState: string; now: Date; expireTime: Date },
): Promise<void> {
  const { now, ...fields } = session;
  await db.webSession.create({ data: { ...fields, createTime: now } });
}

/** The session whose token hashes to `tokenHash`; undefined when none, or expired by `now`. */
export async function findLiveWebSession(db: DbClient, tokenHash: string, now: Date): Promise<WebSession | undefined> {
  const session = await db.webSession.findFirst({ where: { tokenHash, expireTime: { gt: now } }, select: LIVE });
  return session ?? undefined;
}

/** Starts another sign-in on a live session: its new state replaces any earlier one. */
export async function startWebSignIn(db: DbClient, id: string, signInState: string, now: Date): Promise<boolean> {
  const { count } = await db.webSession.updateMany({
    where: { id, expireTime: { gt: now } },
    data: { signInState },
  });
  return count === 1;
}

/**
 * Ends the sign-in whose state is `signInState` with the player Steam vouched for, once: the
 * state is cleared in the same statement (a second return with it finds none), and the
 * session's token is replaced, so a token seen before the sign-in never carries the player.
 */
export async function finishWebSignIn(
  db: DbClient,
  finish: { id: string; signInState: string; steamId: string; tokenHash: string; now: Date; expireTime: Date },
): Promise<boolean> {
  const { count } = await db.webSession.updateMany({
    where: { id: finish.id, signInState: finish.signInState, expireTime: { gt: finish.now } },
    data: { signInState: null, steamId: finish.steamId, tokenHash: finish.tokenHash, expireTime: finish.expireTime },
  });
  return count === 1;
}

export async function deleteWebSession(db: DbClient, id: string): Promise<void> {
  await db.webSession.deleteMany({ where: { id } });
}

/**
 * Accepts an OpenID response nonce once per provider: false when it was accepted before (a
 * replayed assertion). The primary key decides, so two returns racing with one assertion
 * cannot both pass.
 */
export async function acceptOpenIdNonce(db: DbClient, opEndpoint: string, nonce: string, now: Date): Promise<boolean> {
  try {
    await db.openIdNonce.create({ data: { opEndpoint, nonce, createTime: now } });
    return true;
  } catch (error) {
    if (violates(error, "unique")) return false;
    throw error;
  }
}

/**
 * Deletes sessions expired by `now` and nonces accepted before `noncesBefore` (past the window
 * a nonce is accepted in, so none of them could pass again); how many rows went. Idempotent.
 */
export async function purgeWebSessions(db: DbClient, now: Date, noncesBefore: Date): Promise<number> {
  const sessions = await db.webSession.deleteMany({ where: { expireTime: { lte: now } } });
  const nonces = await db.openIdNonce.deleteMany({ where: { createTime: { lt: noncesBefore } } });
  return sessions.count + nonces.count;
}
