import { checkSignInReturn, openIdFields } from "../domain/openid-assertion.js";
import { webFundingPath } from "../domain/web-funding.js";
import {
  acceptOpenIdNonce,
  deleteWebSession,
  finishWebSignIn,
  insertWebSession,
  startWebSignIn,
} from "../store/web-sessions.js";
import {
  campaignMessage,
  type FundContext,
  notFoundPage,
  readCampaign,
  readSession,
  secureCookie,
} from "./fund-context.js";
import { fromOwnOrigin, type Req, type Res } from "./fund-http.js";
import {
  clearedSessionCookie,
  formTokenMatches,
  newSessionId,
  newSessionToken,
  newSignInState,
  sessionCookie,
  sessionLife,
} from "./web-session.js";

// Signing in through Steam (OpenID 2.0; reference steam-partner-api.md section 11): a POST starts
// it and sends the browser to the provider. The return counts only in the browser that started
// it, for exactly the return_to sent, with a fresh nonce taken once, and once the provider itself
// vouched for it (check_authentication); then the session carries the Steam id under a new
// token. Nothing but the nonce is stored from a return that fails any check.

/** The return_to of a sign-in: bound to its session by `state`, compared exactly on return. */
function returnToOf(context: FundContext, campaignKey: string, state: string): string {
  return `${context.publicUrl}${webFundingPath(campaignKey)}/sign-in/return?state=${encodeURIComponent(state)}`;
}

/** `POST /fund/{key}/sign-in`: a session (new, or the cookie's) with a new sign-in state, then the provider. */
export async function startSignIn(context: FundContext, req: Req, res: Res, campaignKey: string): Promise<void> {
  if (!fromOwnOrigin(req, context.publicUrl)) return refuseForm(context, res, campaignKey);
  const campaign = await readCampaign(context, campaignKey);
  if (!campaign) return notFoundPage(context, res, campaignKey);
  if (!campaign.webFundingEnabled) return webFundingOff(context, res, campaignKey);
  const { db, now } = context.deps;
  const state = newSignInState();
  const session = await readSession(context, req);
  const headers: Record<string, string> = {};
  if (!session || !(await startWebSignIn(db, session.id, state, now()))) {
    const token = newSessionToken();
    await insertWebSession(db, {
      id: newSessionId(),
      tokenHash: token.hash,
      signInState: state,
      ...sessionLife(now()),
    });
    headers["set-cookie"] = sessionCookie(token.token, secureCookie(context, req));
  }
  const signIn = context.deps.steam.openIdSignInUrl({
    returnTo: returnToOf(context, campaignKey, state),
    realm: `${context.publicUrl}/`,
  });
  context.respond.redirect(res, signIn.href, headers);
}

/** `GET /fund/{key}/sign-in/return`: the provider's answer, for this session's sign-in only. */
export async function finishSignIn(
  context: FundContext,
  req: Req,
  res: Res,
  campaignKey: string,
  query: URLSearchParams,
): Promise<void> {
  const { db, now, steam, logger } = context.deps;
  const state = query.get("state") ?? "";
  const session = await readSession(context, req);
  // Only the browser that started this sign-in may finish it (its cookie's session holds the state).
  if (!session || session.signInState === null || session.signInState !== state) {
    return signInFailed(context, res, campaignKey, "This sign-in was not started in this browser, or it is over.");
  }
  const fields = openIdFields(query);
  const checked =
    fields && checkSignInReturn(fields, { returnTo: returnToOf(context, campaignKey, state), now: now() });
  if (!fields || !checked?.ok) {
    const problem = checked?.ok === false ? checked.problem : "repeated-field";
    logger.info({ problem }, "web sign-in refused");
    const text =
      problem === "cancelled"
        ? "You cancelled signing in on Steam."
        : "Steam's answer could not be accepted. Sign in again.";
    return signInFailed(context, res, campaignKey, text);
  }
  // Taken before the provider is asked, so a replayed assertion is refused here whatever the
  // provider says, and two returns racing with one assertion cannot both pass.
  if (!(await acceptOpenIdNonce(db, context.openIdUrl, checked.nonce, now()))) {
    logger.info({ problem: "replayed-nonce" }, "web sign-in refused");
    return signInFailed(context, res, campaignKey, "This sign-in was already used. Sign in again.");
  }
  const verified = await steam.verifyOpenIdAssertion(fields);
  if (verified.kind === "unavailable") {
    return campaignMessage(context, res, 503, campaignKey, [
      "Steam is not answering",
      "Steam could not confirm your sign-in just now. Sign in again in a moment.",
    ]);
  }
  if (verified.kind !== "ok" || !verified.value.valid) {
    const reason = verified.kind === "ok" && !verified.value.valid ? verified.value.reason : verified.kind;
    logger.info({ problem: "provider-refused", reason }, "web sign-in refused");
    return signInFailed(context, res, campaignKey, "Steam did not confirm this sign-in. Sign in again.");
  }
  const token = newSessionToken();
  const signedIn = { id: session.id, signInState: state, steamId: verified.value.steamid, tokenHash: token.hash };
  const finished = await finishWebSignIn(db, { ...signedIn, ...sessionLife(now()) });
  if (!finished) return signInFailed(context, res, campaignKey, "This sign-in is over. Sign in again.");
  context.respond.redirect(res, webFundingPath(campaignKey), {
    "set-cookie": sessionCookie(token.token, secureCookie(context, req)),
  });
}

/** `POST /fund/{key}/sign-out`: the session is deleted and its cookie cleared. */
export async function signOut(context: FundContext, req: Req, res: Res, campaignKey: string, form: URLSearchParams) {
  const session = await readSession(context, req);
  if (!fromOwnOrigin(req, context.publicUrl) || (session && !formTokenMatches(session.token, form.get("formToken")))) {
    return refuseForm(context, res, campaignKey);
  }
  if (session) await deleteWebSession(context.deps.db, session.id);
  context.respond.redirect(res, webFundingPath(campaignKey), {
    "set-cookie": clearedSessionCookie(secureCookie(context, req)),
  });
}

function signInFailed(context: FundContext, res: Res, campaignKey: string, text: string): void {
  campaignMessage(context, res, 400, campaignKey, ["Sign-in failed", text]);
}

/** A form that did not come from this service's own page, or without its session's token. */
export function refuseForm(context: FundContext, res: Res, campaignKey: string): void {
  const words = [
    "Please use the campaign's page",
    "This request did not come from the campaign's page. Open it and try again.",
  ] as const;
  campaignMessage(context, res, 403, campaignKey, words, "Open the campaign's page");
}

export function webFundingOff(context: FundContext, res: Res, campaignKey: string): void {
  const words = ["Web funding is off", "Funding from the web is turned off for this campaign."] as const;
  campaignMessage(context, res, 403, campaignKey, words);
}
