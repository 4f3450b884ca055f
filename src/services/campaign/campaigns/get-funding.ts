import type { HandlerContext } from "@connectrpc/connect";
import type { GetFundingRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { Funding } from "../../../../gen/encore/campaign/v1/purchase_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { runwayDays, spendWindow } from "../../../domain/funding.js";
import { resources } from "../../../domain/resource-names.js";
import { campaignExists } from "../../../store/campaigns.js";
import { readFunding } from "../../../store/purchases-read.js";
import { loadAuthorized, readName } from "../../management-access.js";
import { toFunding } from "./funding-mapper.js";

/**
 * GetFunding (spec 4.6, permission funding.get): the project's balance, its spend over the
 * last seven days, the runway at that rate and the purchases credited over the same window.
 */
export function createGetFunding(deps: ServiceDeps) {
  return async (request: GetFundingRequest, ctx: HandlerContext): Promise<Funding> => {
    const name = readName(resources.funding, request.name, "name");
    const window = spendWindow(deps.now());
    const facts = await loadAuthorized(
      { ctx, permission: "encore.funding.get", name, text: request.name },
      async (n) =>
        (await campaignExists(deps.db, n.accountId, n.campaignId))
          ? readFunding(deps.db, { campaignId: n.campaignId, window })
          : undefined,
    );
    return toFunding(name, {
      ...facts,
      runwayDays: runwayDays(facts.balanceNanos, facts.spendNanos),
      windowStart: window.since,
      windowEnd: window.until,
    });
  };
}
