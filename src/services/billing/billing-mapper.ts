import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type CheckoutSession,
  CheckoutSession_State,
  CheckoutSessionSchema,
  type LedgerEntry,
  LedgerEntry_Type,
  LedgerEntrySchema,
} from "../../../gen/encore/billing/v1/billing_service_pb.js";
import type { LedgerType } from "../../../gen/prisma/enums.js";
import { resources } from "../../domain/resource-names.js";
import type { CheckoutRow } from "../../store/checkout.js";
import type { LedgerRow } from "../../store/ledger.js";
import { toMoney } from "../money-mapper.js";

const sessionStates = {
  OPEN: CheckoutSession_State.OPEN,
  COMPLETE: CheckoutSession_State.COMPLETE,
  EXPIRED: CheckoutSession_State.EXPIRED,
} as const;

export const ledgerTypes: Record<LedgerType, LedgerEntry_Type> = {
  PLAYER_TOP_UP: LedgerEntry_Type.PLAYER_TOP_UP,
  DEVELOPER_TOP_UP: LedgerEntry_Type.DEVELOPER_TOP_UP,
  USAGE: LedgerEntry_Type.USAGE,
  REVERSAL: LedgerEntry_Type.REVERSAL,
};

export function toCheckoutSession(row: CheckoutRow): CheckoutSession {
  return create(CheckoutSessionSchema, {
    name: resources.checkoutSession.format({ accountId: row.accountId, sessionId: row.id }),
    project:
      row.projectId === null ? "" : resources.project.format({ accountId: row.accountId, projectId: row.projectId }),
    amount: toMoney(row.amountNanos),
    checkoutUrl: row.checkoutUrl,
    state: sessionStates[row.state],
    createTime: timestampFromDate(row.createTime),
  });
}

/** An entry of a project's ledger; `source` names what moved the balance. */
export function toLedgerEntry(project: { accountId: string; id: string }, row: LedgerRow): LedgerEntry {
  return create(LedgerEntrySchema, {
    name: resources.ledgerEntry.format({ accountId: project.accountId, projectId: project.id, entryId: row.id }),
    type: ledgerTypes[row.type],
    amount: toMoney(row.amountNanos),
    source: sourceOf(project, row),
    createTime: timestampFromDate(row.createTime),
  });
}

function sourceOf(project: { accountId: string; id: string }, row: LedgerRow): string {
  const { accountId } = project;
  if (row.purchaseId !== null && row.campaignId !== null) {
    return resources.purchase.format({ accountId, campaignId: row.campaignId, purchaseId: row.purchaseId });
  }
  if (row.checkoutSessionId !== null)
    return resources.checkoutSession.format({ accountId: accountId, sessionId: row.checkoutSessionId });
  if (row.resourceId !== null)
    return resources.resource.format({ accountId: accountId, projectId: project.id, resourceId: row.resourceId });
  return "";
}
