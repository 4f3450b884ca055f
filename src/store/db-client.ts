import type { Prisma } from "../../gen/prisma/client.js";
import type { Db } from "./open-database.js";

/** The client or a transaction: query modules take either, so callers choose the boundary. */
export type DbClient = Db | Prisma.TransactionClient;

/**
 * More writes a caller adds to a store function's own transaction, run only when its change was
 * made: the webhook events that tell of the change (the transactional outbox).
 */
export type InTransaction<T = void> = (tx: Prisma.TransactionClient, change: T) => Promise<void>;
