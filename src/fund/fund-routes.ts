import { Code, ConnectError } from "@connectrpc/connect";
import { shapePublicFunding } from "../domain/funding.js";
import { webIpv4Address } from "../domain/web-address.js";
import { listActiveOffers } from "../store/public-campaigns.js";
import { isStoreUnavailable } from "../store/store-unavailable.js";
import { createBuy } from "./buy.js";
import { type FundContext, type FundOptions, notFoundPage, readCampaign, readSession } from "./fund-context.js";
import { createResponder, fundSecurityHeaders, type Req, type Res, readForm } from "./fund-http.js";
import { campaignPage, messagePage } from "./fund-pages.js";
import { finishSignIn, signOut, startSignIn } from "./sign-in.js";
import { formToken } from "./web-session.js";

export type { FundAdmission, FundLimits, FundOptions } from "./fund-context.js";

const FUND_PATH = "/fund/";

/** Answers a request under /fund/ (true), or leaves it to the rest of the service (false). */
export type FundRoutes = (req: Req, res: Res, clientAddress: string) => boolean;

/**
 * The campaign's public funding page (docs/game-integration.md, "Funding from the web"), served
 * by the service itself under `/fund/`:
 * - `GET /fund/{key}`: the page;
 * - `POST /fund/{key}/sign-in`, `GET /fund/{key}/sign-in/return`, `POST /fund/{key}/sign-out`;
 * - `POST /fund/{key}/purchases`, `GET /fund/{key}/purchases/{id}/return`;
 * - `GET /fund/assets/fund.css`.
 * The two GET returns are the only GETs that change anything, as Steam's protocols make them;
 * each is bound to the cookie's session and idempotent.
 */
export function createFundRoutes(options: FundOptions): FundRoutes {
  const headers = fundSecurityHeaders(options.steamOrigins, options.frameAncestors);
  const context: FundContext = { ...options, respond: createResponder(headers) };
  const purchases = createBuy(context);

  const route = async (req: Req, res: Res, address: string): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://fund.invalid");
    const parts = url.pathname.slice(FUND_PATH.length).split("/");
    const method = req.method ?? "GET";
    const read = method === "GET" || method === "HEAD";
    if (parts[0] === "assets" && parts.length === 2 && parts[1] === "fund.css" && read) {
      return context.respond.css(req, res);
    }
    const campaignKey = decodeSegment(parts[0] as string);
    if (campaignKey === undefined || parts.includes("")) return notFoundPage(context, res);
    const rest = parts.slice(1).join("/");
    await options.limits.request(address);
    if (rest === "" && read) return showPage(context, req, res, campaignKey, address);
    if (rest === "sign-in/return" && read) return finishSignIn(context, req, res, campaignKey, url.searchParams);
    const purchaseReturn = /^purchases\/([^/]+)\/return$/.exec(rest);
    if (purchaseReturn && read) return purchases.returned(req, res, campaignKey, purchaseReturn[1] as string);
    if (rest === "sign-in" && method === "POST") return startSignIn(context, req, res, campaignKey);
    if ((rest === "sign-out" || rest === "purchases") && method === "POST") {
      const form = await readForm(req);
      if (!form) return context.respond.page(res, 400, messagePage("Not understood", "This form could not be read."));
      if (rest === "sign-out") return signOut(context, req, res, campaignKey, form);
      return purchases.buy(req, res, campaignKey, form, address);
    }
    return notFoundPage(context, res, campaignKey);
  };

  return (req, res, clientAddress) => {
    const path = req.url?.split("?")[0] ?? "";
    if (path !== "/fund" && !path.startsWith(FUND_PATH)) return false;
    route(req, res, clientAddress).catch((error: unknown) => failed(context, res, error));
    return true;
  };
}

async function showPage(context: FundContext, req: Req, res: Res, campaignKey: string, address: string) {
  const campaign = await readCampaign(context, campaignKey);
  if (!campaign) return notFoundPage(context, res, campaignKey);
  const [offers, session] = await Promise.all([
    listActiveOffers(context.deps.db, campaign.campaignId),
    campaign.webFundingEnabled ? readSession(context, req) : undefined,
  ]);
  const body = campaignPage({
    campaignKey,
    gameName: campaign.gameName,
    campaignName: campaign.campaignName,
    webFundingEnabled: campaign.webFundingEnabled,
    funding: shapePublicFunding(campaign),
    offers,
    ...(session?.steamId && { player: { steamId: session.steamId, formToken: formToken(session.token) } }),
    ipv4: webIpv4Address(address) !== undefined,
  });
  context.respond.page(res, 200, body);
}

/** 429 before any work (spec 8), 503 when the store cannot be read; anything else is logged as a fault. */
function failed(context: FundContext, res: Res, error: unknown) {
  const code = error instanceof ConnectError ? error.code : undefined;
  if (res.headersSent) {
    context.deps.logger.error({ err: error }, "funding page failed after answering");
    res.end();
    return;
  }
  if (code === Code.ResourceExhausted) {
    const page = messagePage("Too many requests", "Too many requests from your address. Wait a minute and try again.");
    return context.respond.page(res, 429, page, { "retry-after": "60" });
  }
  const unavailable = code === Code.Unavailable || isStoreUnavailable(error);
  if (unavailable) context.deps.logger.warn({ err: error }, "funding page: the store or the platform is unavailable");
  else context.deps.logger.error({ err: error }, "funding page failed");
  const page = messagePage("Something went wrong", "The page could not be answered. Try again in a moment.");
  context.respond.page(res, unavailable ? 503 : 500, page);
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
