import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Campaign, Campaign_State, CampaignSchema } from "../../../../gen/encore/campaign/v1/campaign_pb.js";
import {
  type Transfer,
  Transfer_Mode,
  Transfer_State,
  TransferItem_State,
  TransferSchema,
} from "../../../../gen/encore/campaign/v1/transfer_pb.js";
import { FundingVisibility } from "../../../../gen/encore/campaign/v1/visibility_pb.js";
import type { CampaignState } from "../../../domain/availability.js";
import { etagOf } from "../../../domain/etag.js";
import type { FundingVisibility as DomainVisibility } from "../../../domain/funding.js";
import { resources } from "../../../domain/resource-names.js";
import { webFundingUri } from "../../../domain/web-funding.js";
import type { CampaignRow, TransferRow } from "../../../store/campaigns.js";
import { toFundingVisibility } from "../public/public-mapper.js";

const states: Record<CampaignState, Campaign_State> = {
  VERIFYING: Campaign_State.STATE_VERIFYING,
  NEEDS_REVIEW: Campaign_State.NEEDS_REVIEW,
  IN_REVIEW: Campaign_State.IN_REVIEW,
  DECLINED: Campaign_State.DECLINED,
  VERIFIED: Campaign_State.VERIFIED,
  REVOKED: Campaign_State.REVOKED,
};

export function toCampaignState(state: CampaignState): Campaign_State {
  return states[state];
}

/** The wire's visibility as stored; undefined for UNSPECIFIED, which has no working value. */
export function fromFundingVisibility(visibility: FundingVisibility): DomainVisibility | undefined {
  switch (visibility) {
    case FundingVisibility.EXACT_BALANCE:
      return "EXACT_BALANCE";
    case FundingVisibility.RUNWAY:
      return "RUNWAY";
    case FundingVisibility.FUNDED_ONLY:
      return "FUNDED_ONLY";
    default:
      return undefined;
  }
}

/**
 * A campaign with everything GetCampaign carries (spec 4.6): key, verification, project,
 * transfer, and its public page's link on `publicUrl` (PUBLIC_URL), shown whether web funding is
 * on or not.
 */
export function toCampaign(row: CampaignRow, publicUrl: string): Campaign {
  const name = { accountId: row.accountId, campaignId: row.id };
  const transfer = row.transfers[0];
  return create(CampaignSchema, {
    name: resources.campaign.format(name),
    displayName: row.displayName,
    game: resources.game.format({ accountId: row.accountId, gameId: row.gameId }),
    listing: resources.listing.format({ accountId: row.accountId, linkId: row.linkId, appId: row.appId }),
    fundingVisibility: toFundingVisibility(row.fundingVisibility),
    etag: etagOf(row.version),
    campaignKey: row.campaignKey,
    verification: {
      keyOwnsApp: row.keyOwnsApp,
      removedFromSale: row.removedFromSale,
      endingAnnouncement: row.endingAnnouncement,
      explanation: row.explanation,
      verifyTime: row.verifyTime === null ? undefined : timestampFromDate(row.verifyTime),
    },
    project: resources.project.format({ accountId: row.accountId, projectId: row.projectId }),
    transfer: transfer === undefined ? undefined : toTransfer(row, transfer),
    state: states[row.state],
    createTime: timestampFromDate(row.createTime),
    updateTime: timestampFromDate(row.updateTime),
    runwayAlertDays: row.runwayAlertDays,
    webFundingEnabled: row.webFundingEnabled,
    webFundingUri: webFundingUri(publicUrl, row.campaignKey),
  });
}

const modes: Record<TransferRow["mode"], Transfer_Mode> = { CONVERT: Transfer_Mode.CONVERT, MOVE: Transfer_Mode.MOVE };
const transferStates: Record<TransferRow["state"], Transfer_State> = {
  RUNNING: Transfer_State.RUNNING,
  AWAITING_ACKNOWLEDGEMENT: Transfer_State.AWAITING_ACKNOWLEDGEMENT,
  SUCCEEDED: Transfer_State.SUCCEEDED,
  FAILED: Transfer_State.FAILED,
};
const itemStates: Record<TransferRow["items"][number]["state"], TransferItem_State> = {
  PENDING: TransferItem_State.PENDING,
  MOVED: TransferItem_State.MOVED,
  AWAITING_ACKNOWLEDGEMENT: TransferItem_State.AWAITING_ACKNOWLEDGEMENT,
  FRESH_INSTALL: TransferItem_State.FRESH_INSTALL,
  FAILED: TransferItem_State.FAILED,
};

/**
 * A transfer row as the campaign's `transfer` (and the operation's metadata). Items name
 * their resource in the source project; the operation is `operations/{transfer}`.
 */
export function toTransfer(campaign: { accountId: string; id: string }, row: TransferRow): Transfer {
  const resource = (resourceId: string) =>
    resources.resource.format({
      accountId: campaign.accountId,
      projectId: row.sourceProjectId,
      resourceId: resourceId,
    });
  return create(TransferSchema, {
    campaign: resources.campaign.format({ accountId: campaign.accountId, campaignId: campaign.id }),
    sourceProject: resources.project.format({ accountId: campaign.accountId, projectId: row.sourceProjectId }),
    mode: modes[row.mode],
    resources: row.mode === "MOVE" ? row.items.map((item) => resource(item.resourceId)) : [],
    acknowledgeWarnings: row.acknowledgeWarnings,
    requestId: row.requestId ?? "",
    state: transferStates[row.state],
    items: row.items.map((item) => ({
      resource: resource(item.resourceId),
      state: itemStates[item.state],
      detail: item.detail,
    })),
    operation: `operations/${row.id}`,
    createTime: timestampFromDate(row.createTime),
    endTime: row.endTime === null ? undefined : timestampFromDate(row.endTime),
  });
}
