import { randomUUID } from "node:crypto";
import type { Prisma } from "../../gen/prisma/client.js";

/**
 * The money a purchase's credit moves, in the caller's transaction (DESIGN 3): a PLAYER_TOP_UP
 * ledger entry on the campaign's project (unique per purchase, so a second credit fails the
 * transaction), the project's balance up, and the link's outstanding and issued up. With
 * `fromReserved` the purchase's reservation is released too (an open purchase; one that ended
 * released it then).
 */
export async function addPurchaseCredit(
  tx: Prisma.TransactionClient,
  credit: {
    purchaseId: string;
    projectId: string;
    linkId: string;
    creditNanos: bigint;
    fromReserved: boolean;
    now: Date;
  },
): Promise<void> {
  const { purchaseId, projectId, linkId, creditNanos, now } = credit;
  await tx.ledgerEntry.create({
    data: { id: randomUUID(), projectId, type: "PLAYER_TOP_UP", amountNanos: creditNanos, purchaseId, createTime: now },
  });
  await tx.$executeRaw`UPDATE projects SET balance_nanos = balance_nanos + ${creditNanos} WHERE id = ${projectId}`;
  const released = credit.fromReserved ? creditNanos : 0n;
  await tx.$executeRaw`
    UPDATE distributor_links
       SET outstanding_nanos = outstanding_nanos + ${creditNanos}, reserved_nanos = reserved_nanos - ${released},
           issued_nanos = issued_nanos + ${creditNanos}
     WHERE id = ${linkId}`;
}
