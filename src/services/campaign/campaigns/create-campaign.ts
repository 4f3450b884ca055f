import { randomBytes } from "node:crypto";
import type { Campaign } from "../../../../gen/encore/campaign/v1/campaign_pb.js";
import { CreateCampaignRequestSchema } from "../../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { newId } from "../../../core/ids.js";
import { resources } from "../../../domain/resource-names.js";
import { invalidArgument } from "../../../errors/status.js";
import {
  type CampaignRow,
  findCampaignByRequest,
  gameExists,
  insertCampaignWithProject,
} from "../../../store/campaigns.js";
import { violates } from "../../../store/constraint-violation.js";
import { findLink } from "../../../store/links.js";
import { type Idempotency, idempotencyColumns } from "../../create-once.js";
import { readDisplayName } from "../../display-name.js";
import { authorizeParent, readName } from "../../management-access.js";
import type { CampaignImpl } from "../campaign-impl.js";
import { createIdempotently } from "../create-idempotently.js";
import { readLinkApps } from "../links/read-link-apps.js";
import { checkRunwayAlertDays } from "../platform-answers.js";
import { fromFundingVisibility, toCampaign } from "./campaign-mapper.js";

/** The public key a game ships with: 192 random bits, url-safe, never derived from anything. */
function newCampaignKey(): string {
  return `ck_${randomBytes(24).toString("base64url")}`;
}

/**
 * CreateCampaign (spec 3.2): the game is the account's own, the listing one of the link's (as
 * the platform lists it now), funding_visibility chosen, one campaign per app. Returns
 * STATE_VERIFYING at once with its own top-up-only project; verification runs in the background.
 * Idempotent on request_id (AIP-155): a retry gets the first campaign without asking the platform.
 */
export function createCreateCampaign(deps: ServiceDeps): CampaignImpl["createCampaign"] {
  return async (request, ctx) => {
    const accountId = authorizeParent(ctx, "encore.encores.create", request.parent);
    const row = await createIdempotently(deps, {
      schema: CreateCampaignRequestSchema,
      request,
      resource: "campaign",
      findEarlier: (requestId) => findCampaignByRequest(deps.db, accountId, requestId),
      create: (idempotency) => insertCheckedCampaign(deps, { campaign: request.campaign, accountId, idempotency }),
    });
    return toCampaign(row, deps.config.publicUrl);
  };
}

async function insertCheckedCampaign(
  deps: ServiceDeps,
  options: { campaign: Campaign | undefined; accountId: string; idempotency: Idempotency },
): Promise<CampaignRow> {
  const { accountId, idempotency, campaign } = options;
  const displayName = readDisplayName(campaign?.displayName ?? "", "campaign.displayName", { max: 200 });
  const fundingVisibility = fromFundingVisibility(campaign?.fundingVisibility ?? 0);
  if (fundingVisibility === undefined) {
    throw invalidArgument('"campaign.fundingVisibility" is required: choose what players may see of the funding.');
  }
  const gameId = await ownGame(deps, accountId, campaign?.game ?? "");
  const { linkId, appId } = await ownListing(deps, accountId, campaign?.listing ?? "");
  const now = deps.now();
  try {
    const row = await insertCampaignWithProject(deps.db, {
      id: newId(now),
      accountId,
      displayName,
      gameId,
      linkId,
      appId,
      fundingVisibility,
      campaignKey: newCampaignKey(),
      runwayAlertDays: checkRunwayAlertDays(campaign?.runwayAlertDays ?? 0, "campaign.runwayAlertDays"),
      // Off unless the studio asks for it (docs/game-integration.md, "Funding from the web").
      webFundingEnabled: campaign?.webFundingEnabled ?? false,
      projectId: newId(now),
      now,
      ...idempotencyColumns(idempotency),
    });
    deps.wakeVerification();
    return row;
  } catch (error) {
    // The unique index on app_id decides between two concurrent creates for one app, unless
    // they share a request id: then createOnce answers with the winner's campaign.
    if (!violates(error, "unique") || (await sameRequestWon(deps, accountId, idempotency))) throw error;
    throw deps.refuse("PRODUCT_ALREADY_HAS_CAMPAIGN", {
      subject: campaign?.listing ?? "",
      message: `App ${appId} already has a campaign.`,
      metadata: { appId: String(appId) },
    });
  }
}

async function sameRequestWon(deps: ServiceDeps, accountId: string, idempotency: Idempotency): Promise<boolean> {
  if (idempotency.requestId === null) return false;
  return (await findCampaignByRequest(deps.db, accountId, idempotency.requestId)) !== null;
}

async function ownGame(deps: ServiceDeps, accountId: string, game: string): Promise<string> {
  const name = readName(resources.game, game, "campaign.game");
  if (name.accountId !== accountId || !(await gameExists(deps.db, accountId, name.gameId))) {
    throw invalidArgument('"campaign.game" must be one of this account\'s own games.');
  }
  return name.gameId;
}

async function ownListing(
  deps: ServiceDeps,
  accountId: string,
  listing: string,
): Promise<{ linkId: string; appId: bigint }> {
  const name = readName(resources.listing, listing, "campaign.listing");
  const link = name.accountId === accountId ? await findLink(deps.db, accountId, name.linkId) : null;
  if (!link) throw invalidArgument('"campaign.listing" must name one of this account\'s distributor links.');
  const apps = await readLinkApps(deps, link, listing);
  if (!apps.some((app) => BigInt(app.appid) === name.appId)) {
    throw invalidArgument(`"campaign.listing": the link's publisher key does not own app ${name.appId}.`);
  }
  return { linkId: link.id, appId: name.appId };
}
