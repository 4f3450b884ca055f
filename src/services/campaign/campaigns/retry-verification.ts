import type { HandlerContext } from "@connectrpc/connect";
import type { Campaign } from "../../../../gen/encore/campaign/v1/campaign_pb.js";
import { Campaign_State } from "../../../../gen/encore/campaign/v1/campaign_pb.js";
import type { RetryVerificationRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { RETRYABLE_STATES } from "../../../domain/campaign-state.js";
import { resources } from "../../../domain/resource-names.js";
import { notFound } from "../../../errors/status.js";
import { retryVerification } from "../../../store/campaigns.js";
import { notFoundMessage, readName } from "../../management-access.js";
import { authorize } from "../../principal.js";
import { toCampaign, toCampaignState } from "./campaign-mapper.js";

/** RetryVerification (spec 3.2, permission campaigns update): only from NEEDS_REVIEW or DECLINED. */
export function createRetryVerification(deps: ServiceDeps) {
  return async (request: RetryVerificationRequest, ctx: HandlerContext): Promise<Campaign> => {
    const name = readName(resources.campaign, request.name, "name");
    const message = notFoundMessage(request.name);
    authorize(ctx, "encore.encores.update", name.accountId, message);
    const retry = await retryVerification(deps.db, { ...name, from: RETRYABLE_STATES, now: deps.now() });
    if (retry.kind === "absent") throw notFound(message);
    if (retry.kind === "notRetryable") {
      const state = Campaign_State[toCampaignState(retry.state)];
      throw deps.refuse("NOT_RETRYABLE", {
        subject: request.name,
        message: `Verification can be retried only from NEEDS_REVIEW or DECLINED; the campaign is ${state}.`,
        metadata: { state },
      });
    }
    deps.wakeVerification();
    return toCampaign(retry.row, deps.config.publicUrl);
  };
}
