import { randomBytes, randomUUID } from "node:crypto";
import type { Prisma } from "../../gen/prisma/client.js";
import { fingerprintSecret, sealSecret } from "../../src/core/secret-box.js";
import type { SteamSimControl } from "../../src/sim/steam/steam-sim-control.js";
import type { Db } from "../../src/store/open-database.js";
import {
  type SeedCampaignOptions,
  type SeededCampaign,
  type SeedOfferOptions,
  seedCampaign,
  seedOffer,
} from "./seed.js";

export interface SeededShop extends SeededCampaign {
  appId: number;
  publisherKey: string;
  offerId: string;
}

let nextKey = 0;

/**
 * A campaign ready to sell: its link carries a real publisher key sealed under `masterKey`,
 * the simulator knows that key as owning the campaign's app, and one offer is on sale.
 */
export async function seedShop(
  db: Db,
  control: SteamSimControl,
  masterKey: Buffer,
  options: SeedCampaignOptions & { offer?: SeedOfferOptions } = {},
): Promise<SeededShop> {
  const campaign = await seedCampaign(db, options);
  nextKey += 1;
  const publisherKey = `PUBKEY${process.pid}X${nextKey}`;
  await db.distributorLink.update({
    where: { id: campaign.linkId },
    data: {
      publisherKeyEncrypted: sealSecret({ current: masterKey }, publisherKey),
      fingerprint: fingerprintSecret(publisherKey),
    },
  });
  const { appId } = await db.campaign.findUniqueOrThrow({
    where: { id: campaign.campaignId },
    select: { appId: true },
  });
  await control.addPublisherKey(publisherKey, [Number(appId)]);
  const offerId = await seedOffer(db, campaign.campaignId, options.offer);
  return { ...campaign, appId: Number(appId), publisherKey, offerId };
}

let nextPlayer = 76_561_198_000_000_000n;

/** A new player and a ticket for `appId` with the service's identity (DESIGN 3). */
export async function mintPlayer(
  control: SteamSimControl,
  appId: number,
): Promise<{ steamid: string; ticket: string }> {
  nextPlayer += 1n;
  const steamid = nextPlayer.toString();
  const ticket = await control.mintTicket({ steamid, appid: appId, identity: "encore-campaign" });
  return { steamid, ticket };
}

/** What a purchase moved: the link's outstanding and reserved, the project's balance and ledger. */
export async function readMoney(db: Db, shop: SeededCampaign) {
  const link = await db.distributorLink.findUniqueOrThrow({ where: { id: shop.linkId } });
  const project = await db.project.findUniqueOrThrow({ where: { id: shop.projectId } });
  const ledger = await db.ledgerEntry.findMany({ where: { projectId: shop.projectId, type: "PLAYER_TOP_UP" } });
  return {
    outstandingNanos: link.outstandingNanos,
    reservedNanos: link.reservedNanos,
    linkState: link.state,
    balanceNanos: project.balanceNanos,
    ledger: ledger.map((entry) => ({ purchaseId: entry.purchaseId, amountNanos: entry.amountNanos })),
  };
}

/**
 * A purchase row of `campaign` for `offerId`, written straight to the store (no platform order
 * behind it): INITIATED, a 4.99 dollar credit and price, a fresh order id, unless `fields` say
 * otherwise. Returns its id.
 */
export async function seedPurchase(
  db: Db,
  campaign: SeededCampaign,
  offerId: string,
  fields: Partial<Prisma.PurchaseUncheckedCreateInput> = {},
): Promise<string> {
  const id = randomUUID();
  await db.purchase.create({
    data: {
      id,
      campaignId: campaign.campaignId,
      offerId,
      linkId: campaign.linkId,
      orderId: BigInt(`0x${randomBytes(7).toString("hex")}`),
      playerId: "76561197960287930",
      priceNanos: 4_990_000_000n,
      creditNanos: 4_990_000_000n,
      sandbox: false,
      language: "en",
      ...fields,
    },
  });
  return id;
}
