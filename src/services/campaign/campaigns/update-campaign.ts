import type { HandlerContext } from "@connectrpc/connect";
import type { Campaign } from "../../../../gen/encore/campaign/v1/campaign_pb.js";
import type { UpdateCampaignRequest } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { resolveUpdateMask } from "../../../domain/update-mask.js";
import { invalidArgument, notFound } from "../../../errors/status.js";
import { type CampaignChanges, updateCampaign } from "../../../store/campaigns.js";
import { readDisplayName } from "../../display-name.js";
import { expectedVersion, staleEtag } from "../../etag-check.js";
import { notFoundMessage, readName } from "../../management-access.js";
import { authorize } from "../../principal.js";
import { checkRunwayAlertDays } from "../platform-answers.js";
import { fromFundingVisibility, toCampaign } from "./campaign-mapper.js";

type CampaignField = "display_name" | "funding_visibility" | "runway_alert_days" | "web_funding_enabled";

// Accepted in a mask and ignored (AIP-203): output-only fields, and the immutable ones, which
// this method never changes.
const NOT_WRITTEN = [
  "name",
  "game",
  "listing",
  "etag",
  "campaign_key",
  "verification",
  "project",
  "transfer",
  "state",
  "create_time",
  "update_time",
  "web_funding_uri",
];

/**
 * UpdateCampaign (spec 4.6): `display_name`, `funding_visibility`, `runway_alert_days` and
 * `web_funding_enabled`. With an etag the write is conditional on the version it names; a stale
 * one is ABORTED (ETAG_MISMATCH). Without a mask a field counts as given when set: turning web
 * funding off (false, proto3's unset) needs the mask to name it (AIP-134).
 */
export function createUpdateCampaign(deps: ServiceDeps) {
  return async (request: UpdateCampaignRequest, ctx: HandlerContext): Promise<Campaign> => {
    const campaign = request.campaign;
    const text = campaign?.name ?? "";
    const name = readName(resources.campaign, text, "campaign.name");
    const message = notFoundMessage(text);
    authorize(ctx, "encore.encores.update", name.accountId, message);
    const present: CampaignField[] = [];
    if (campaign?.displayName) present.push("display_name");
    if (campaign?.fundingVisibility) present.push("funding_visibility");
    if (campaign?.runwayAlertDays) present.push("runway_alert_days");
    if (campaign?.webFundingEnabled) present.push("web_funding_enabled");
    const mask = resolveUpdateMask<CampaignField>({
      paths: request.updateMask?.paths ?? [],
      updatable: ["display_name", "funding_visibility", "runway_alert_days", "web_funding_enabled"],
      present,
      ignored: NOT_WRITTEN,
    });
    if (!mask.ok) throw invalidArgument(`"updateMask" names "${mask.path}", which cannot be updated.`);
    const changes: CampaignChanges = {};
    if (mask.fields.has("display_name")) {
      changes.displayName = readDisplayName(campaign?.displayName ?? "", "campaign.displayName", { max: 200 });
    }
    if (mask.fields.has("funding_visibility")) {
      const visibility = fromFundingVisibility(campaign?.fundingVisibility ?? 0);
      if (visibility === undefined) throw invalidArgument('"campaign.fundingVisibility" has no working zero value.');
      changes.fundingVisibility = visibility;
    }
    if (mask.fields.has("runway_alert_days")) {
      changes.runwayAlertDays = checkRunwayAlertDays(campaign?.runwayAlertDays ?? 0, "campaign.runwayAlertDays");
    }
    if (mask.fields.has("web_funding_enabled")) changes.webFundingEnabled = campaign?.webFundingEnabled ?? false;
    const written = await updateCampaign(deps.db, {
      ...name,
      expectedVersion: expectedVersion(campaign?.etag ?? ""),
      changes,
      now: deps.now(),
    });
    if (written.kind === "absent") throw notFound(message);
    if (written.kind === "stale") throw staleEtag(deps, text);
    return toCampaign(written.row, deps.config.publicUrl);
  };
}
