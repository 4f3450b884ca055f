import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type DistributorLink,
  DistributorLink_State,
  DistributorLinkSchema,
  type Listing,
  ListingSchema,
  type Settlement,
  SettlementSchema,
} from "../../../../gen/encore/campaign/v1/distributor_link_pb.js";
import { etagOf } from "../../../domain/etag.js";
import { resources } from "../../../domain/resource-names.js";
import type { PartnerApp } from "../../../platform/steam/steam-platform.js";
import type { LinkRow, SettlementRow } from "../../../store/links.js";
import { toMoney } from "../../money-mapper.js";

const states: Record<LinkRow["state"], DistributorLink_State> = {
  ACTIVE: DistributorLink_State.ACTIVE,
  CREDENTIAL_INVALID: DistributorLink_State.CREDENTIAL_INVALID,
};

/**
 * A link as the API returns it: the fingerprint only, never the key (spec 2.6); the
 * encrypted key is not even read into the message.
 */
export function toDistributorLink(row: LinkRow): DistributorLink {
  return create(DistributorLinkSchema, {
    name: resources.link.format({ accountId: row.accountId, linkId: row.id }),
    displayName: row.displayName,
    steam: { sandbox: row.sandbox },
    fingerprint: row.fingerprint,
    outstanding: toMoney(row.outstandingNanos),
    reserved: toMoney(row.reservedNanos),
    outstandingLimit: toMoney(row.outstandingLimitNanos),
    state: states[row.state],
    etag: etagOf(row.version),
    createTime: timestampFromDate(row.createTime),
    updateTime: timestampFromDate(row.updateTime),
  });
}

export function toListing(link: { accountId: string; linkId: string }, app: PartnerApp): Listing {
  return create(ListingSchema, {
    name: resources.listing.format({ ...link, appId: BigInt(app.appid) }),
    appId: BigInt(app.appid),
    displayName: app.name,
  });
}

export function toSettlement(link: { accountId: string; linkId: string }, row: SettlementRow): Settlement {
  return create(SettlementSchema, {
    name: resources.settlement.format({ ...link, settlementId: row.id }),
    amount: toMoney(row.amountNanos),
    reference: row.reference,
    createTime: timestampFromDate(row.createTime),
  });
}
