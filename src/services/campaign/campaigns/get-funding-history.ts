import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { GetFundingHistoryRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import {
  FundingDaySchema,
  type FundingHistory,
  FundingHistorySchema,
} from "../../../../gen/encore/campaign/v1/purchase_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { buildFundingHistory, historyReadStart } from "../../../domain/funding-history.js";
import { resources } from "../../../domain/resource-names.js";
import { invalidArgument } from "../../../errors/status.js";
import { campaignExists } from "../../../store/campaigns.js";
import { readFundingHistory } from "../../../store/funding-history.js";
import { loadAuthorized, readName } from "../../management-access.js";
import { toMoney } from "../../money-mapper.js";

const DEFAULT_DAYS = 30;
const MAX_DAYS = 366;

/**
 * GetFundingHistory (permission funding.get like GetFunding, spec 5): the campaign's
 * funding per UTC day, built from the project's ledger, for the studio's funding chart.
 */
export function createGetFundingHistory(deps: ServiceDeps) {
  return async (request: GetFundingHistoryRequest, ctx: HandlerContext): Promise<FundingHistory> => {
    const name = readName(resources.funding, request.name, "name");
    const days = request.days === 0 ? DEFAULT_DAYS : request.days;
    if (days < 1 || days > MAX_DAYS)
      throw invalidArgument(`"days" must be from 1 to ${MAX_DAYS} (0: ${DEFAULT_DAYS}).`);
    const now = deps.now();
    const facts = await loadAuthorized(
      { ctx, permission: "encore.funding.get", name, text: request.name },
      async (n) =>
        (await campaignExists(deps.db, n.accountId, n.campaignId))
          ? readFundingHistory(deps.db, { campaignId: n.campaignId, since: historyReadStart(now, days) })
          : undefined,
    );
    return create(FundingHistorySchema, {
      name: resources.funding.format(name),
      days: buildFundingHistory({ now, days, facts }).map((day) =>
        create(FundingDaySchema, {
          startTime: timestampFromDate(day.start),
          closingBalance: toMoney(day.closingBalanceNanos),
          spend: toMoney(day.spendNanos),
          purchaseCount: day.purchaseCount,
          purchasedCredit: toMoney(day.purchasedCreditNanos),
          developerCredit: toMoney(day.developerCreditNanos),
          reversedCredit: toMoney(day.reversedCreditNanos),
          runwayDays: day.runwayDays,
        }),
      ),
    });
  };
}
