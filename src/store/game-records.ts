import type { DbClient } from "./db-client.js";

// The host's record of a studio's games (encore.hosting.v1 Game).

export interface GameRow {
  id: string;
  accountId: string;
  displayName: string;
  createTime: Date;
}

export function insertGame(db: DbClient, row: GameRow): Promise<GameRow> {
  return db.game.create({ data: row });
}

export function findGame(db: DbClient, accountId: string, gameId: string): Promise<GameRow | null> {
  return db.game.findFirst({ where: { id: gameId, accountId } });
}

/** One page of an account's games in id order (ids are random, so this is stable, not meaningful). */
export function listGames(
  db: DbClient,
  options: { accountId: string; afterId: string | undefined; take: number },
): Promise<GameRow[]> {
  return db.game.findMany({
    where: { accountId: options.accountId, ...(options.afterId === undefined ? {} : { id: { gt: options.afterId } }) },
    orderBy: { id: "asc" },
    take: options.take,
  });
}
