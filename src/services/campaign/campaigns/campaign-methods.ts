import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Campaign_State } from "../../../../gen/encore/campaign/v1/campaign_pb.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { parseCampaignFilter } from "../../../domain/campaign-filter.js";
import { RETRYABLE_STATES } from "../../../domain/campaign-state.js";
import { runwayDays, spendWindow } from "../../../domain/funding.js";
import { buildFundingHistory, historyReadStart } from "../../../domain/funding-history.js";
import { type CampaignName, resources } from "../../../domain/resource-names.js";
import { invalidArgument, notFound } from "../../../errors/status.js";
import {
  campaignExists,
  deleteCampaign,
  findCampaign,
  listCampaigns,
  retryVerification,
} from "../../../store/campaigns.js";
import { readFundingHistory } from "../../../store/funding-history.js";
import { readFunding } from "../../../store/purchases-read.js";
import { type Authorized, authorizeName, authorizeParent, loadAuthorized, readName } from "../../management-access.js";
import { toMoney } from "../../money-mapper.js";
import type { CampaignImpl } from "../campaign-impl.js";
import { deleteConditionally } from "../conditional-delete.js";
import { listByCursor } from "../list-by-cursor.js";
import { toCampaign, toCampaignState } from "./campaign-mapper.js";
import { createCreateCampaign } from "./create-campaign.js";
import { toFunding } from "./funding-mapper.js";
import { createUpdateCampaign } from "./update-campaign.js";

const DEFAULT_HISTORY_DAYS = 30;
const MAX_HISTORY_DAYS = 366;

/** Campaigns, their verification and their funding as the studio sees it (spec 3.2, 4.6). */
export function createCampaignMethods(deps: ServiceDeps): CampaignMethods {
  const publicUrl = deps.config.publicUrl;
  /** A campaign's funding facts, read once the campaign is known to exist (permission funding.get). */
  const loadFunding = <T>(funding: Authorized<CampaignName>, read: (campaignId: string) => Promise<T | undefined>) =>
    loadAuthorized(funding, async (n) =>
      (await campaignExists(deps.db, n.accountId, n.campaignId)) ? read(n.campaignId) : undefined,
    );
  return {
    createCampaign: createCreateCampaign(deps),
    updateCampaign: createUpdateCampaign(deps),

    /** GetCampaign (spec 4.6): carries campaign_key, verification, project and transfer. */
    async getCampaign(request, ctx) {
      const campaign = authorizeName(ctx, "encore.encores.get", resources.campaign, request.name);
      const row = await loadAuthorized(campaign, (n) => findCampaign(deps.db, n.accountId, n.campaignId));
      return toCampaign(row, publicUrl);
    },

    /** ListCampaigns (spec 4.6): oldest first; `filter` accepts only `state = "<VALUE>"`. */
    async listCampaigns(request, ctx) {
      const accountId = authorizeParent(ctx, "encore.encores.list", request.parent);
      const filter = parseCampaignFilter(request.filter);
      if (!filter.ok) {
        throw invalidArgument('"filter" accepts only state = "<VALUE>", e.g. state = "NEEDS_REVIEW".');
      }
      const page = await listByCursor(deps, request, {
        // The filter is part of the scope: a token from another filter is refused.
        scope: `campaigns:${accountId}:${filter.state ?? ""}`,
        load: (next) => listCampaigns(deps.db, { accountId, state: filter.state, ...next }),
      });
      return { campaigns: page.items.map((row) => toCampaign(row, publicUrl)), nextPageToken: page.nextPageToken };
    },

    /** DeleteCampaign (spec 3.3, 4.6): CAMPAIGN_TRANSFERRED once a transfer started or a purchase was made. */
    deleteCampaign: (request, ctx) =>
      deleteConditionally(deps, authorizeName(ctx, "encore.encores.delete", resources.campaign, request.name), {
        etag: request.etag,
        remove: (name, expectedVersion) => deleteCampaign(deps.db, { ...name, expectedVersion }),
        refusal: {
          when: "transferredOrBought",
          reason: "CAMPAIGN_TRANSFERRED",
          message: "The campaign can no longer be deleted: a transfer was started or a purchase was made.",
        },
      }),

    /** RetryVerification (spec 3.2, permission campaigns update): only from NEEDS_REVIEW or DECLINED. */
    async retryVerification(request, ctx) {
      const { name, message } = authorizeName(ctx, "encore.encores.update", resources.campaign, request.name);
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
      return toCampaign(retry.row, publicUrl);
    },

    /**
     * GetFunding (spec 4.6, permission funding.get): the project's balance, its spend over the
     * last seven days, the runway at that rate and the purchases credited over the same window.
     */
    async getFunding(request, ctx) {
      const funding = authorizeName(ctx, "encore.funding.get", resources.funding, request.name);
      const window = spendWindow(deps.now());
      const facts = await loadFunding(funding, (campaignId) => readFunding(deps.db, { campaignId, window }));
      return toFunding(funding.name, {
        ...facts,
        runwayDays: runwayDays(facts.balanceNanos, facts.spendNanos),
        windowStart: window.since,
        windowEnd: window.until,
      });
    },

    /**
     * GetFundingHistory (permission funding.get like GetFunding, spec 5): the campaign's
     * funding per UTC day, built from the project's ledger, for the studio's funding chart.
     */
    async getFundingHistory(request, ctx) {
      const name = readName(resources.funding, request.name, "name");
      const days = request.days === 0 ? DEFAULT_HISTORY_DAYS : request.days;
      if (days < 1 || days > MAX_HISTORY_DAYS) {
        throw invalidArgument(`"days" must be from 1 to ${MAX_HISTORY_DAYS} (0: ${DEFAULT_HISTORY_DAYS}).`);
      }
      const now = deps.now();
      // Authorized only after `days` is read, so a bad `days` is INVALID_ARGUMENT for every caller.
      const funding = authorizeName(ctx, "encore.funding.get", resources.funding, request.name);
      const since = historyReadStart(now, days);
      const facts = await loadFunding(funding, (campaignId) => readFundingHistory(deps.db, { campaignId, since }));
      return {
        name: resources.funding.format(name),
        days: buildFundingHistory({ now, days, facts }).map((day) => ({
          startTime: timestampFromDate(day.start),
          closingBalance: toMoney(day.closingBalanceNanos),
          spend: toMoney(day.spendNanos),
          purchaseCount: day.purchaseCount,
          purchasedCredit: toMoney(day.purchasedCreditNanos),
          developerCredit: toMoney(day.developerCreditNanos),
          reversedCredit: toMoney(day.reversedCreditNanos),
          runwayDays: day.runwayDays,
        })),
      };
    },
  };
}

type CampaignMethods = Pick<
  CampaignImpl,
  | "createCampaign"
  | "getCampaign"
  | "listCampaigns"
  | "updateCampaign"
  | "deleteCampaign"
  | "retryVerification"
  | "getFunding"
  | "getFundingHistory"
>;
