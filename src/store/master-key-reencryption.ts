import { Prisma } from "../../gen/prisma/client.js";
import type { Db } from "./open-database.js";

// Secrets sealed again under the current master key (docs/deploy.md, rotating the master key).
// A batch of rows is locked FOR UPDATE SKIP LOCKED in one transaction and each box is replaced
// only if it is still the one read: several replicas may run passes at once, and a studio's
// update racing a pass (a new publisher key, a rotated webhook secret) keeps its new box.

/** Every column that holds a box sealed under the master key (secret-box.ts). */
export const SEALED_COLUMNS = {
  publisherKey: { table: "distributor_links", column: "publisher_key_encrypted" },
  webhookSecret: { table: "webhook_endpoints", column: "secret_encrypted" },
  previousWebhookSecret: { table: "webhook_endpoints", column: "previous_secret_encrypted" },
} as const;

export type SealedColumn = (typeof SEALED_COLUMNS)[keyof typeof SEALED_COLUMNS];

export interface ReencryptionPass {
  /** Boxes this pass sealed again. */
  reencrypted: number;
  /** Boxes the callback could not open (logged by it); they stay as they are. */
  unreadable: number;
  /** Boxes not under the current key when the pass ended (locked elsewhere, or unreadable). */
  remaining: number;
}

interface SealedRow {
  id: string;
  box: Uint8Array;
}

/**
 * Walks every row whose box in `sealed` does not start with `currentHeader` (sealed under
 * another master key, or before boxes named their key; an empty nullable column is skipped),
 * in id order, `batchSize` per transaction. `reencrypt` returns the new box, or undefined when
 * the old one cannot be opened.
 */
export async function reencryptSealedColumn(
  db: Db,
  sealed: SealedColumn,
  options: {
    currentHeader: Uint8Array;
    batchSize: number;
    reencrypt: (row: SealedRow) => Uint8Array | undefined;
  },
): Promise<ReencryptionPass> {
  // Identifiers from the fixed table above, never from a caller.
  const table = Prisma.raw(sealed.table);
  const column = Prisma.raw(sealed.column);
  const header = Buffer.from(options.currentHeader);
  const notUnderCurrent = Prisma.sql`substring(${column} FROM 1 FOR ${header.length}::int) <> ${header}`;
  const pass = { reencrypted: 0, unreadable: 0 };
  let after = "";
  for (;;) {
    const batch = await db.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<SealedRow[]>`
        SELECT id, ${column} AS box FROM ${table}
         WHERE id > ${after} AND ${notUnderCurrent}
         ORDER BY id
         LIMIT ${options.batchSize}
         FOR UPDATE SKIP LOCKED`;
      for (const row of rows) {
        const box = options.reencrypt(row);
        if (!box) {
          pass.unreadable += 1;
          continue;
        }
        pass.reencrypted += await tx.$executeRaw`
          UPDATE ${table} SET ${column} = ${box} WHERE id = ${row.id} AND ${column} = ${row.box}`;
      }
      return rows;
    });
    const last = batch.at(-1);
    if (!last || batch.length < options.batchSize) break;
    after = last.id;
  }
  const [left] = await db.$queryRaw<{ remaining: bigint }[]>`
    SELECT count(*) AS remaining FROM ${table} WHERE ${notUnderCurrent}`;
  return { ...pass, remaining: Number(left?.remaining ?? 0n) };
}
