import type { Game } from "../../gen/prisma/client.js";
import type { DbClient } from "./db-client.js";
import { type IdPage, idPageQuery } from "./id-page.js";

// The host's record of a studio's games (encore.hosting.v1 Game).

export type GameRow = Game;

export function insertGame(db: DbClient, row: GameRow): Promise<GameRow> {
  return db.game.create({ data: row });
}

export function findGame(db: DbClient, accountId: string, gameId: string): Promise<GameRow | null> {
  return db.game.findFirst({ where: { id: gameId, accountId } });
}

/** One page of an account's games in id order (ids are random, so this is stable, not meaningful). */
export function listGames(db: DbClient, accountId: string, page: IdPage): Promise<GameRow[]> {
  return db.game.findMany(idPageQuery({ accountId }, page));
}
