import type { ServiceImpl } from "@connectrpc/connect";
import type { OperatorService } from "../../../gen/encore/operator/v1/operator_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { newId } from "../../core/ids.js";
import { readRequestId } from "../../domain/request-id.js";
import { resources } from "../../domain/resource-names.js";
import { alreadyExists, invalidArgument, notFound } from "../../errors/status.js";
import { violates } from "../../store/constraint-violation.js";
import { findSettlementByRequestId, recordSettlement } from "../../store/settlements.js";
import { toSettlement } from "../campaign/links/link-mapper.js";
import { readName } from "../management-access.js";
import { requireOperator } from "../principal.js";
import { emitSettlementRecorded } from "../webhooks/resource-events.js";
import { readUsd } from "./operator-money.js";

const MAX_REFERENCE = 256;

/**
 * Records what an account paid for credit already issued and lowers the link's outstanding by
 * as much, atomically; more than the outstanding is SETTLEMENT_EXCEEDS_OUTSTANDING. Idempotent
 * on request_id: a retry (or a concurrent twin) gets the first settlement back, recorded once.
 */
export function createRecordSettlement(deps: ServiceDeps): ServiceImpl<typeof OperatorService>["recordSettlement"] {
  return async (request, ctx) => {
    requireOperator(ctx);
    const link = readName(resources.link, request.parent, "parent");
    const amountNanos = readUsd(request.amount, "amount");
    if (amountNanos <= 0n) throw invalidArgument('"amount" must be more than zero.');
    if (request.reference.length > MAX_REFERENCE) {
      throw invalidArgument(`"reference" must be at most ${MAX_REFERENCE} characters.`);
    }
    const requestId = readRequestId(request.requestId);
    const replay = async () => {
      const earlier = requestId === undefined ? null : await findSettlementByRequestId(deps.db, requestId);
      if (!earlier) return undefined;
      if (
        earlier.linkId !== link.linkId ||
        earlier.link.accountId !== link.accountId ||
        earlier.amountNanos !== amountNanos
      ) {
        throw alreadyExists('"requestId" was already used for a different settlement.');
      }
      return toSettlement(link, earlier);
    };
    const first = await replay();
    if (first) return first;
    const now = deps.now();
    const outcome = await recordSettlement(
      deps.db,
      {
        id: newId(now),
        accountId: link.accountId,
        linkId: link.linkId,
        amountNanos,
        reference: request.reference.trim(),
        requestId: requestId ?? null,
        createTime: now,
      },
      // Settlement.recorded commits with the settlement.
      (tx, row) => emitSettlementRecorded(tx, link, row, now),
    ).catch(async (error: unknown) => {
      if (violates(error, "unique")) return { kind: "duplicate" } as const;
      throw error;
    });
    if (outcome.kind === "recorded") return toSettlement(link, outcome.settlement);
    // A concurrent call with the same request_id committed first: answer with its settlement.
    const twin = await replay();
    if (twin) return twin;
    if (outcome.kind === "noLink") throw notFound(`Distributor link "${request.parent}" not found.`);
    if (outcome.kind === "duplicate") throw alreadyExists('"requestId" was already used.');
    throw deps.refuse("SETTLEMENT_EXCEEDS_OUTSTANDING", {
      subject: request.parent,
      message: "The settlement is more than the link's outstanding credit.",
      metadata: { outstandingNanos: outcome.outstandingNanos.toString() },
    });
  };
}
