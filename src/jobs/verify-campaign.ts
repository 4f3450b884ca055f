import type { ServiceDeps } from "../core/deps.js";
import { openSecret } from "../core/secret-box.js";
import { decideVerification, type VerificationFacts } from "../domain/campaign-state.js";
import { findEndingAnnouncement } from "../domain/ending-announcement.js";
import type { PlatformResult, StoreAvailability } from "../platform/steam/steam-platform.js";
import { postponeVerification, recordVerification, type VerificationTask } from "../store/campaigns.js";
import { markKeyRejected } from "../usecases/key-rejected.js";

export type VerifyDeps = Pick<ServiceDeps, "db" | "steam" | "masterKeys" | "now" | "webhookEvents">;

export type VerifyResult = "VERIFIED" | "NEEDS_REVIEW" | "POSTPONED" | "LOST_LEASE";

const NOT_ANSWERING = "The platform did not answer; verification will be tried again.";

/**
 * Verifies one leased campaign against the platform (spec 3.2): the linked key owns the app
 * AND (the store no longer sells it OR the studio's announcement says it is ending) ->
 * VERIFIED, otherwise NEEDS_REVIEW. A platform that does not answer leaves it VERIFYING; a
 * rejected key marks the link STATE_CREDENTIAL_INVALID and the campaign NEEDS_REVIEW.
 */
export async function verifyCampaign(deps: VerifyDeps, task: VerificationTask): Promise<VerifyResult> {
  const publisherKey = openSecret(deps.masterKeys, task.publisherKeyEncrypted);
  const appid = Number(task.appId);
  const apps = await deps.steam.listPartnerApps({ publisherKey });
  if (apps.kind === "unavailable") return postpone(deps, task);
  const facts: VerificationFacts = { keyOwnsApp: false, removedFromSale: false, endingAnnouncement: "" };
  if (apps.kind === "refused") {
    if (apps.keyRejected) await markKeyRejected(deps, task.linkId, publisherKey);
    const explanation = "The platform rejected the link's publisher key; rotate it, then retry verification.";
    return record(deps, task, facts, { state: "NEEDS_REVIEW", explanation });
  }
  facts.keyOwnsApp = apps.value.some((app) => app.appid === appid);
  if (!facts.keyOwnsApp) return record(deps, task, facts);
  const store = await deps.steam.getStoreAvailability({ appid });
  if (store.kind === "unavailable") return postpone(deps, task);
  facts.removedFromSale = removedFromSale(store);
  const news = await deps.steam.getNews({ appid, publisherKey, feeds: ["steam_community_announcements"] });
  if (news.kind === "ok") facts.endingAnnouncement = findEndingAnnouncement(news.value);
  // Without the news the outcome is still certain when the store no longer sells the game.
  else if (news.kind === "unavailable" && !facts.removedFromSale) return postpone(deps, task);
  return record(deps, task, facts);
}

/** Steam's storefront refusing to describe the app is not an answer about the app. */
function removedFromSale(store: PlatformResult<StoreAvailability>): boolean {
  return store.kind === "ok" && (store.value.status === "removed" || store.value.status === "notSold");
}

async function record(
  deps: VerifyDeps,
  task: VerificationTask,
  facts: VerificationFacts,
  outcome = decideVerification(facts),
): Promise<VerifyResult> {
  const now = deps.now();
  const written = await recordVerification(deps.db, task, {
    record: { ...facts, ...outcome },
    now,
    // Campaign.verified or campaign.needs_review, in the transaction that moved it.
    inTransaction: (tx) => deps.webhookEvents?.campaignState(tx, task.campaignId, now) ?? Promise.resolve(),
  });
  return written ? outcome.state : "LOST_LEASE";
}

async function postpone(deps: VerifyDeps, task: VerificationTask): Promise<VerifyResult> {
  await postponeVerification(deps.db, task, { explanation: NOT_ANSWERING, now: deps.now() });
  return "POSTPONED";
}
