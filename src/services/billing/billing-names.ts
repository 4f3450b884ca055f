import type { NameResult } from "../../domain/resource-names.js";

// `accounts/{account}/checkoutSessions/{checkout_session}` and ledger entry names.

const CHECKOUT = /^accounts\/([A-Za-z0-9][A-Za-z0-9_-]{0,63})\/checkoutSessions\/([A-Za-z0-9][A-Za-z0-9_-]{0,63})$/;

export interface CheckoutSessionName {
  accountId: string;
  sessionId: string;
}

export function parseCheckoutSessionName(name: string): NameResult<CheckoutSessionName> {
  const match = CHECKOUT.exec(name);
  if (!match) return { ok: false };
  return { ok: true, value: { accountId: match[1] as string, sessionId: match[2] as string } };
}

export const billingNames = {
  checkoutSession: (accountId: string, sessionId: string) => `accounts/${accountId}/checkoutSessions/${sessionId}`,
  ledgerEntry: (accountId: string, projectId: string, entryId: string) =>
    `accounts/${accountId}/projects/${projectId}/ledgerEntries/${entryId}`,
} as const;
