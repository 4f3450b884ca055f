import { Code, ConnectError } from "@connectrpc/connect";
import { shapePublicFunding } from "../domain/funding.js";
import { webIpv4Address } from "../domain/web-address.js";
import { webFundingPath } from "../domain/web-funding.js";
import { webApprovalUrl } from "../platform/steam/steam-web-approval.js";
import { findWebOrder } from "../store/fund-page.js";
import { findPurchase } from "../store/purchases.js";
import { createBeginPurchaseUseCase } from "../usecases/begin/begin-purchase.js";
import { settlePurchase } from "../usecases/settle-purchase.js";
import {
  campaignMessage,
  type FundContext,
  notFoundPage,
  readCampaign,
  readSession,
  reasonOf,
} from "./fund-context.js";
import { fromOwnOrigin, type Req, type Res } from "./fund-http.js";
import { resultPage } from "./fund-pages.js";
import { refuseForm, webFundingOff } from "./sign-in.js";
import { formTokenMatches } from "./web-session.js";
import { REASON_WORDS } from "./words.js";

// Buying on the web (reference 3.1 "Web flow"): the purchase is opened by the same begin use
// case as the game's (spec 4.3, every rule), as a web order for the signed-in player's IPv4
// address; the browser goes to Steam's approval page and comes back to the return, which settles
// the order through the same settlement as the game's complete (one credit, exactly once).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function createBuy(context: FundContext) {
  const begin = createBeginPurchaseUseCase(context.deps);
  const { respond, deps } = context;

  /** `POST /fund/{key}/purchases`: the form of one offer, from the signed-in player's page. */
  async function buy(req: Req, res: Res, campaignKey: string, form: URLSearchParams, address: string) {
    const session = await readSession(context, req);
    if (!fromOwnOrigin(req, context.publicUrl) || !session || !formTokenMatches(session.token, form.get("formToken"))) {
      return refuseForm(context, res, campaignKey);
    }
    if (session.steamId === null) {
      return campaignMessage(context, res, 403, campaignKey, ["Sign in first", "Sign in through Steam to buy."]);
    }
    const campaign = await readCampaign(context, campaignKey);
    if (!campaign) return notFoundPage(context, res, campaignKey);
    if (!campaign.webFundingEnabled) return webFundingOff(context, res, campaignKey);
    const ipAddress = webIpv4Address(address);
    if (ipAddress === undefined) {
      return campaignMessage(context, res, 400, campaignKey, [
        "IPv4 needed",
        "Steam approves web purchases only for IPv4 connections, and this one is IPv6. Nothing was ordered.",
      ]);
    }
    const admission = await context.limits.begin({ campaignKey, address });
    const steamId = session.steamId;
    // Told to the limits as a game's ticket verdict is: a begin refused before its player was
    // asked for keeps no point of the campaign's begin limit.
    let vouched = false;
    let answer: Awaited<ReturnType<typeof begin>>;
    try {
      answer = await begin({
        campaignKey,
        offerId: form.get("offerId") ?? "",
        requestId: form.get("requestId") ?? "",
        language: "",
        clientAddress: address,
        // Steam vouched for the player when they signed in (their session holds the Steam id).
        player: async () => {
          vouched = true;
          return steamId;
        },
        web: { ipAddress },
      });
    } catch (error) {
      return refused(res, campaignKey, error);
    } finally {
      admission.settle(vouched ? "vouched" : "unchecked");
    }
    const steamUrl = answer.steamUrl ?? (await findWebOrder(deps.db, answer.purchase))?.steamUrl ?? undefined;
    const approve = steamUrl && approvalUrl(context, steamUrl, campaignKey, answer.purchase);
    if (!approve) {
      deps.logger.error(
        { purchaseId: answer.purchase },
        "web order opened without an approval page on Steam's origins",
      );
      return campaignMessage(context, res, 502, campaignKey, [
        "Steam's answer was unusable",
        "Steam opened the order without a usable approval page. Nothing was charged.",
      ]);
    }
    respond.redirect(res, approve);
  }

  function refused(res: Res, campaignKey: string, error: unknown) {
    const reason = reasonOf(error);
    if (reason && reason in REASON_WORDS) {
      return campaignMessage(context, res, 400, campaignKey, [
        "Not bought",
        REASON_WORDS[reason as keyof typeof REASON_WORDS],
      ]);
    }
    const code = error instanceof ConnectError ? error.code : undefined;
    if (code === Code.NotFound) return notFoundPage(context, res, campaignKey);
    if (code === Code.InvalidArgument || code === Code.AlreadyExists) {
      return campaignMessage(context, res, 400, campaignKey, [
        "Not bought",
        "This form is out of date. Open the page again.",
      ]);
    }
    if (code === Code.Unavailable) {
      return campaignMessage(context, res, 503, campaignKey, [
        "Steam is not answering",
        "Steam did not answer. Try again in a moment; you will not be charged twice.",
      ]);
    }
    throw error;
  }

  /**
   * `GET /fund/{key}/purchases/{id}/return`: Steam's web flow sends the browser back here. Only
   * the session of the player who bought sees the purchase. QueryTxn decides: Approved is
   * finalized and credited, a decline cancelled, Init left as it is, a final state shown as it is
   * (an abandoned order is never finalized). Any repeat (reload, back, two tabs) shows the same.
   */
  async function returned(req: Req, res: Res, campaignKey: string, purchaseId: string) {
    const session = await readSession(context, req);
    const purchase = UUID.test(purchaseId) ? await findPurchase(deps.db, purchaseId) : undefined;
    const order = purchase && (await findWebOrder(deps.db, purchase.id));
    if (
      !purchase ||
      !order ||
      !session?.steamId ||
      purchase.campaignKey !== campaignKey ||
      purchase.playerId !== session.steamId
    ) {
      return notFoundPage(context, res, campaignKey);
    }
    // The player's return (reference 3.1 "Web flow"): the one settler that may begin capturing a
    // web order, through complete's settlement, so it is finalized only when QueryTxn says Approved
    // and it is still open, and credited once however often the browser comes back. Coming back is
    // the player's answer: a Failed order reads as their decline, as the game's `authorized: false`.
    const settled = await settlePurchase(deps, purchase, { authorized: false, playerReturned: true });
    if (settled.kind === "unavailable") {
      return campaignMessage(context, res, 503, campaignKey, [
        "Steam is not answering",
        "Steam did not say how your order stands. Reload this page in a moment.",
      ]);
    }
    const campaign = await readCampaign(context, campaignKey).catch((error: unknown) => {
      deps.logger.warn({ err: error }, "funding after a web purchase could not be read");
      return undefined;
    });
    respond.page(
      res,
      200,
      resultPage({
        campaignKey,
        gameName: campaign?.gameName ?? "the game",
        state: settled.state,
        offerName: order.offerName,
        priceNanos: order.priceNanos,
        funding: campaign && shapePublicFunding(campaign),
        ...(settled.state === "INITIATED" &&
          order.steamUrl && { approveUrl: approvalUrl(context, order.steamUrl, campaignKey, purchase.id) }),
      }),
    );
  }

  return { buy, returned };
}

/**
 * Steam's approval page with our return appended (reference 3.1: `returnurl`, fully specified),
 * or undefined when `steamUrl` is not on Steam's origins: the browser is only ever sent to Steam,
 * and the page's CSP would stop any other redirect anyway.
 */
function approvalUrl(context: FundContext, steamUrl: string, campaignKey: string, purchaseId: string) {
  let url: URL;
  try {
    url = new URL(steamUrl);
  } catch {
    return undefined;
  }
  if (!context.steamOrigins.includes(url.origin)) return undefined;
  return webApprovalUrl(steamUrl, `${context.publicUrl}${webFundingPath(campaignKey)}/purchases/${purchaseId}/return`);
}
