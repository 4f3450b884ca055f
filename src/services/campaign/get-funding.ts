import type { HandlerContext } from "@connectrpc/connect";
import type { GetFundingRequest } from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { Funding } from "../../../gen/encore/campaign/v1/purchase_pb.js";
import { runwayDays } from "../../domain/funding.js";
import { parseFundingName } from "../../domain/resource-names.js";
import { campaignExists } from "../../store/campaigns.js";
import { readFunding } from "../../store/purchases-read.js";
import type { ServiceDeps } from "../deps.js";
import { toFunding } from "./funding-mapper.js";
import { loadAuthorized, readName } from "./management-access.js";

const WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * GetFunding (spec 4.6, permission funding.get): the project's balance, its spend over the
 * last seven days, the runway at that rate and the purchases credited over the same window.
 */
export function createGetFunding(deps: ServiceDeps) {
  return async (request: GetFundingRequest, ctx: HandlerContext): Promise<Funding> => {
    const name = readName(parseFundingName(request.name), "name", "accounts/{account}/campaigns/{campaign}/funding");
    const windowEnd = deps.now();
    const windowStart = new Date(windowEnd.getTime() - WINDOW_MS);
    const facts = await loadAuthorized(
      { ctx, permission: "encore.funding.get", name, text: request.name },
      async (n) =>
        (await campaignExists(deps.db, n.accountId, n.campaignId))
          ? readFunding(deps.db, { campaignId: n.campaignId, since: windowStart, until: windowEnd })
          : undefined,
    );
    return toFunding(name, {
      ...facts,
      runwayDays: runwayDays(facts.balanceNanos, facts.spendNanos),
      windowStart,
      windowEnd,
    });
  };
}
