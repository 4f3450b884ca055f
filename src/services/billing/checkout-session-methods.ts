import type { ServiceImpl } from "@connectrpc/connect";
import type { BillingService } from "../../../gen/encore/billing/v1/billing_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { newId } from "../../core/ids.js";
import { LARGEST_AMOUNT, parsePositiveCents } from "../../domain/money.js";
import { readRequestId } from "../../domain/request-id.js";
import { resources } from "../../domain/resource-names.js";
import { amountOutOfRange } from "../../errors/messages.js";
import { alreadyExists, invalidArgument, notFound } from "../../errors/status.js";
import type { PaymentProvider } from "../../platform/billing/payment-provider.js";
import {
  type CheckoutRow,
  findCheckoutByRequestId,
  findCheckoutSession,
  insertCheckoutSession,
} from "../../store/checkout.js";
import { findProject } from "../../store/projects.js";
import { authorizeName, authorizeParent, loadAuthorized, notFoundMessage, readName } from "../management-access.js";
import { toCheckoutSession } from "./billing-mapper.js";

/** Checkout sessions: buying credit through the payment provider. */
export function createCheckoutSessionMethods(deps: ServiceDeps, payments: PaymentProvider): CheckoutSessionMethods {
  return {
    /**
     * CreateCheckoutSession: buys credit through the payment provider, for the account or, with
     * `project`, for that top-up-only project directly (spec 4.6, "Related"): how a developer
     * funds a campaign project. Nothing is credited until the provider says the session was paid.
     */
    async createCheckoutSession(request, ctx) {
      const accountId = authorizeParent(ctx, "billing.checkoutSessions.create", request.parent);
      const requestId = readRequestId(request.requestId) ?? null;
      const session = request.checkoutSession;
      const amount = session?.amount ? parsePositiveCents(session.amount) : undefined;
      if (amount?.ok === false && amount.problem === "AMOUNT_OUT_OF_RANGE") {
        throw invalidArgument(amountOutOfRange("checkoutSession.amount", LARGEST_AMOUNT));
      }
      if (!amount?.ok) throw invalidArgument('"checkoutSession.amount" must be a positive USD amount in whole cents.');
      const projectId = session?.project ? await readTopUpProject(deps, accountId, session.project) : null;
      const asked = { accountId, projectId, amountNanos: amount.nanos };
      // A retry is answered from the store before the provider is asked, so it never opens a
      // second (orphan) provider session (AIP-155).
      const known = requestId === null ? null : await findCheckoutByRequestId(deps.db, requestId);
      if (known) return toCheckoutSession(sameRequest(known, asked));
      const now = deps.now();
      const id = newId(now);
      const { checkoutUrl } = await payments.openCheckout({ sessionId: id, accountId, amountNanos: amount.nanos });
      const row = await insertCheckoutSession(deps.db, {
        id,
        accountId,
        projectId,
        amountNanos: amount.nanos,
        checkoutUrl,
        requestId,
        createTime: now,
      });
      if (!row) throw alreadyExists(REUSED);
      return toCheckoutSession(sameRequest(row, asked));
    },

    /** GetCheckoutSession: OPEN until the provider says it was paid, then COMPLETE. */
    async getCheckoutSession(request, ctx) {
      const session = authorizeName(ctx, "billing.checkoutSessions.get", resources.checkoutSession, request.name);
      return toCheckoutSession(
        await loadAuthorized(session, (n) => findCheckoutSession(deps.db, n.accountId, n.sessionId)),
      );
    },
  };
}

type CheckoutSessionMethods = Pick<ServiceImpl<typeof BillingService>, "createCheckoutSession" | "getCheckoutSession">;

const REUSED = '"requestId" was already used for another checkout session.';

/** The session a request id opened, only when this request is the same one (else ALREADY_EXISTS). */
function sameRequest(
  row: CheckoutRow,
  asked: { accountId: string; projectId: string | null; amountNanos: bigint },
): CheckoutRow {
  const same =
    row.accountId === asked.accountId && row.projectId === asked.projectId && row.amountNanos === asked.amountNanos;
  if (!same) throw alreadyExists(REUSED);
  return row;
}

/** Only a top-up-only project takes credit directly; an ordinary one is paid by the account. */
async function readTopUpProject(deps: ServiceDeps, accountId: string, text: string): Promise<string> {
  const name = readName(resources.project, text, "checkoutSession.project");
  const project = name.accountId === accountId ? await findProject(deps.db, accountId, name.projectId) : undefined;
  if (!project) throw notFound(notFoundMessage(text));
  if (!project.topUpOnly) {
    throw invalidArgument(`${text} is paid by the account's payment method; only a top-up-only project takes credit.`);
  }
  return project.id;
}
