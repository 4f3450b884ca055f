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
import { names } from "../../domain/resource-names.js";
import type { CheckoutRow } from "../../store/checkout.js";
import type { LedgerRow } from "../../store/ledger.js";
import { toMoney } from "../money-mapper.js";
import { billingNames } from "./billing-names.js";

const sessionStates = {
  OPEN: CheckoutSession_State.OPEN,
  COMPLETE: CheckoutSession_State.COMPLETE,
  EXPIRED: CheckoutSession_State.EXPIRED,
} as const;

export const ledgerTypes: Record<LedgerType, LedgerEntry_Type> = {
  PLAYER_TOP_UP: LedgerEntry_Type.PLAYER_TOP_UP,
  DEVELOPER_TOP_UP: LedgerEntry_Type.DEVELOPER_TOP_UP,
  USAGE: LedgerEntry_Type.USAGE,
};

export function toCheckoutSession(row: CheckoutRow): CheckoutSession {
  return create(CheckoutSessionSchema, {
    name: billingNames.checkoutSession(row.accountId, row.id),
    project: row.projectId === null ? "" : names.project(row.accountId, row.projectId),
    amount: toMoney(row.amountNanos),
    checkoutUrl: row.checkoutUrl,
    state: sessionStates[row.state],
    createTime: timestampFromDate(row.createTime),
  });
}

/** An entry of a project's ledger; `source` names what moved the balance. */
export function toLedgerEntry(project: { accountId: string; id: string }, row: LedgerRow): LedgerEntry {
  return create(LedgerEntrySchema, {
    name: billingNames.ledgerEntry(project.accountId, project.id, row.id),
    type: ledgerTypes[row.type],
    amount: toMoney(row.amountNanos),
    source: sourceOf(project, row),
    createTime: timestampFromDate(row.createTime),
  });
}

function sourceOf(project: { accountId: string; id: string }, row: LedgerRow): string {
  const { accountId } = project;
  if (row.purchaseId !== null && row.campaignId !== null) {
    return names.purchase({ accountId, campaignId: row.campaignId, purchaseId: row.purchaseId });
  }
  if (row.checkoutSessionId !== null) return billingNames.checkoutSession(accountId, row.checkoutSessionId);
  if (row.resourceId !== null) return names.resource(accountId, project.id, row.resourceId);
  return "";
}
