import { ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { hashToken } from "../core/credentials.js";
import type { ServiceDeps } from "../core/deps.js";
import { spendWindow } from "../domain/funding.js";
import { webFundingPath } from "../domain/web-funding.js";
import { type FundPageFacts, findFundPage } from "../store/fund-page.js";
import { findLiveWebSession, type WebSession } from "../store/web-sessions.js";
import { type PublicCampaign, publicCampaignOf } from "../usecases/read-public-campaign.js";
import type { Req, Res, Responder } from "./fund-http.js";
import { messagePage } from "./fund-pages.js";
import { cookieToken } from "./web-session.js";

/**
 * A begin let through the limits: told once, when it is answered, whether its player was vouched
 * for (the web's signed-in player is, once the begin got past its local refusals).
 */
export interface FundAdmission {
  settle(verdict: "vouched" | "unchecked"): void;
}

/**
 * The rate limits (spec 8) the funding page shares with the public calls: every request counts
 * against its client address as a public call does, and a purchase also as purchases:begin does
 * (per campaign key and per address). Each throws the 429 refusal, before any work.
 */
export interface FundLimits {
  request(address: string): Promise<void>;
  begin(call: { campaignKey: string; address: string }): Promise<FundAdmission>;
}

export interface FundOptions {
  deps: ServiceDeps;
  /** PUBLIC_URL: the service's origin as players reach it (no path). */
  publicUrl: string;
  /** STEAM_OPENID_URL: the provider players sign in with. */
  openIdUrl: string;
  /**
   * The origins of Steam's pages the browser is sent on to after a form: the sign-in
   * provider's and the store's (where a web order's `steamurl` is, reference 3.1 "Web flow").
   */
  steamOrigins: readonly string[];
  /** CSP frame-ancestors of the page. */
  frameAncestors: string;
  limits: FundLimits;
}

/** What every route of the page is given. */
export interface FundContext extends FundOptions {
  respond: Responder;
}

export type Campaign = FundPageFacts & PublicCampaign;

/** The campaign a page names, with why it cannot be bought from (as funding:get reads it). */
export async function readCampaign(context: FundContext, campaignKey: string): Promise<Campaign | undefined> {
  const facts = await findFundPage(context.deps.db, campaignKey, spendWindow(context.deps.now()));
  return facts && { ...facts, ...publicCampaignOf(facts) };
}

/** The live session the request's cookie names, if any. */
export async function readSession(
  context: FundContext,
  req: Req,
): Promise<(WebSession & { token: string }) | undefined> {
  const token = cookieToken(req.headers);
  if (!token) return undefined;
  const session = await findLiveWebSession(context.deps.db, hashToken(token), context.deps.now());
  return session && { ...session, token };
}

/** Whether the session cookie must be Secure: the page is served over TLS, here or before a proxy. */
export function secureCookie(context: FundContext, req: Req): boolean {
  return context.publicUrl.startsWith("https:") || "encrypted" in req.socket;
}

export function notFoundPage(context: FundContext, res: Res, campaignKey?: string) {
  if (campaignKey === undefined)
    return context.respond.page(res, 404, messagePage("Not found", "There is nothing here."));
  const text = "No campaign or purchase of yours is at this address.";
  campaignMessage(context, res, 404, campaignKey, ["Not found", text], "Go to the campaign's page");
}

/** A message page for a step that stopped, with the way back to the campaign's page. */
export function campaignMessage(
  context: FundContext,
  res: Res,
  status: number,
  campaignKey: string,
  [title, text]: readonly [string, string],
  label = "Back to the campaign",
): void {
  context.respond.page(res, status, messagePage(title, text, { href: webFundingPath(campaignKey), label }));
}

/** The ErrorInfo reason of a refusal (spec 7), if it carries one. */
export function reasonOf(error: unknown): string | undefined {
  if (!(error instanceof ConnectError)) return undefined;
  return error.findDetails(ErrorInfoSchema)[0]?.reason;
}
