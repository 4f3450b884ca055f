import { CampaignSchema } from "../../../../gen/encore/campaign/v1/campaign_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import { invalidArgument } from "../../../errors/status.js";
import { type CampaignChanges, updateCampaign } from "../../../store/campaigns.js";
import { readDisplayName } from "../../display-name.js";
import { expectedVersion, writtenRow } from "../../etag-check.js";
import { authorizeName } from "../../management-access.js";
import type { CampaignImpl } from "../campaign-impl.js";
import { checkRunwayAlertDays } from "../platform-answers.js";
import { updatedFields } from "../update-fields.js";
import { fromFundingVisibility, toCampaign } from "./campaign-mapper.js";

/**
 * UpdateCampaign (spec 4.6): `display_name`, `funding_visibility`, `runway_alert_days` and
 * `web_funding_enabled`. With an etag the write is conditional on the version it names; a stale
 * one is ABORTED (ETAG_MISMATCH). Without a mask a field counts as given when set: turning web
 * funding off (false, proto3's unset) needs the mask to name it (AIP-134).
 */
export function createUpdateCampaign(deps: ServiceDeps): CampaignImpl["updateCampaign"] {
  return async (request, ctx) => {
    const campaign = request.campaign;
    const target = authorizeName(ctx, "encore.encores.update", resources.campaign, campaign?.name ?? "", {
      field: "campaign.name",
    });
    const fields = updatedFields({
      resource: CampaignSchema,
      paths: request.updateMask?.paths ?? [],
      given: {
        display_name: campaign?.displayName,
        funding_visibility: campaign?.fundingVisibility,
        runway_alert_days: campaign?.runwayAlertDays,
        web_funding_enabled: campaign?.webFundingEnabled,
      },
    });
    const changes: CampaignChanges = {};
    if (fields.has("display_name")) {
      changes.displayName = readDisplayName(campaign?.displayName ?? "", "campaign.displayName", { max: 200 });
    }
    if (fields.has("funding_visibility")) {
      const visibility = fromFundingVisibility(campaign?.fundingVisibility ?? 0);
      if (visibility === undefined) throw invalidArgument('"campaign.fundingVisibility" has no working zero value.');
      changes.fundingVisibility = visibility;
    }
    if (fields.has("runway_alert_days")) {
      changes.runwayAlertDays = checkRunwayAlertDays(campaign?.runwayAlertDays ?? 0, "campaign.runwayAlertDays");
    }
    if (fields.has("web_funding_enabled")) changes.webFundingEnabled = campaign?.webFundingEnabled ?? false;
    const version = expectedVersion(campaign?.etag ?? "");
    const written = await updateCampaign(deps.db, {
      ...target.name,
      expectedVersion: version,
      changes,
      now: deps.now(),
    });
    return toCampaign(writtenRow(deps, written, target), deps.config.publicUrl);
  };
}
