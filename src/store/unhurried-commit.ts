import { Prisma } from "../../gen/prisma/client.js";

/**
 * A `WITH` item that makes its own statement commit without waiting for its WAL flush
 * (`synchronous_commit` off for that statement's transaction only), for writes the service
 * survives losing in a database crash because whoever acts next asks the platform first
 * (recordInitTxnEnds, recordTransId, claimFinalize). Others see the write as soon as it commits;
 * only its durability waits for the WAL writer (at most three wal_writer_delay, 600 ms by
 * default), and the next write that waits for its flush makes it durable too. The statement must
 * name `unhurried` in its FROM, and run on its own, never inside a transaction that moves money.
 */
export const UNHURRIED_COMMIT = Prisma.sql`unhurried AS (SELECT set_config('synchronous_commit', 'off', true))`;
