// Steam's sign-in page at /openid/login (reference 11): a checkid_setup request is shown as a
// form where the player types the Steam id to sign in as; the form's POST sends the browser back
// to return_to with a signed assertion, or with `openid.mode=cancel`.

import type { SimAnswer } from "./sim-answer.js";
import { badRequestPage, escapeHtml, hiddenFields, htmlPage, httpUrl } from "./sim-html.js";
import { IDENTIFIER_SELECT, makeAssertion, OPENID_NS, OPENID_PATH, returnToWith } from "./sim-openid.js";
import { ensurePlayer, type SimState } from "./sim-state.js";

/** Prefilled in the form: the reference's sample player. */
export const SAMPLE_STEAMID = "76561198000000001";

const STEAMID64 = /^\d{17}$/;

type SignInRequest = {
  readonly returnTo: URL;
  /** openid.return_to exactly as the site sent it: the assertion signs it so. */
  readonly returnToText: string;
  readonly realm: string;
  readonly fields: [string, string][];
};

/** GET: the sign-in page for a valid checkid_setup request; a 400 page says what is wrong otherwise. */
export function signInPage(params: URLSearchParams): SimAnswer {
  const request = readSignInRequest(params);
  return "error" in request ? badRequestPage(request.error) : signInForm(request, SAMPLE_STEAMID, undefined);
}

/** POST of the sign-in form: back to return_to, signed in (302) or cancelled. */
export function submitSignIn(state: SimState, form: URLSearchParams): SimAnswer {
  const request = readSignInRequest(form);
  if ("error" in request) return badRequestPage(request.error);
  const action = form.get("action");
  if (action === "cancel")
    return redirect(request.returnTo, [
      ["openid.ns", OPENID_NS],
      ["openid.mode", "cancel"],
    ]);
  if (action !== "sign-in") return badRequestPage("Choose Sign in or Cancel.");
  const steamid = (form.get("steamid") ?? "").trim();
  if (!STEAMID64.test(steamid)) return signInForm(request, steamid, "A Steam id is 17 digits, e.g. 76561198000000001.");
  ensurePlayer(state, steamid);
  const assertion = makeAssertion(state, { steamid, returnTo: request.returnToText });
  return redirect(request.returnTo, Object.entries(assertion));
}

function readSignInRequest(params: URLSearchParams): SignInRequest | { error: string } {
  if (params.get("openid.ns") !== OPENID_NS) return { error: `openid.ns must be ${OPENID_NS}.` };
  if (params.get("openid.mode") !== "checkid_setup") return { error: "openid.mode must be checkid_setup." };
  // Steam picks the account itself: it serves identifier_select only.
  for (const name of ["openid.claimed_id", "openid.identity"])
    if (params.get(name) !== IDENTIFIER_SELECT) return { error: `${name} must be ${IDENTIFIER_SELECT}.` };
  const returnToText = params.get("openid.return_to") ?? "";
  const returnTo = httpUrl(returnToText);
  if (returnTo === undefined) return { error: "openid.return_to must be an absolute http(s) URL." };
  const realm = params.get("openid.realm") ?? returnTo.href;
  if (!underRealm(returnTo, realm)) return { error: "openid.return_to does not match openid.realm." };
  const fields: [string, string][] = [
    ["openid.ns", OPENID_NS],
    ["openid.mode", "checkid_setup"],
    ["openid.claimed_id", IDENTIFIER_SELECT],
    ["openid.identity", IDENTIFIER_SELECT],
    ["openid.return_to", returnToText],
    ["openid.realm", realm],
  ];
  return { returnTo, returnToText, realm, fields };
}

/**
 * OpenID 2.0 section 9.2.1: same scheme and port, the same host (or one under a `*.` realm's),
 * and a path equal to or below the realm's; a realm has no fragment.
 */
export function underRealm(returnTo: URL, realmText: string): boolean {
  const wildcard = /^https?:\/\/\*\./.test(realmText);
  const realm = httpUrl(wildcard ? realmText.replace("*.", "") : realmText);
  if (realm === undefined || realm.hash !== "" || realmText.includes("#")) return false;
  if (realm.protocol !== returnTo.protocol || realm.port !== returnTo.port) return false;
  const host = returnTo.hostname;
  if (host !== realm.hostname && !(wildcard && host.endsWith(`.${realm.hostname}`))) return false;
  const base = realm.pathname.endsWith("/") ? realm.pathname : `${realm.pathname}/`;
  return returnTo.pathname === realm.pathname || returnTo.pathname.startsWith(base);
}

function signInForm(request: SignInRequest, steamid: string, error: string | undefined): SimAnswer {
  const described = error === undefined ? "steamid-help" : "steamid-help steamid-error";
  const body =
    `<p>Sign in to <strong>${escapeHtml(request.realm)}</strong> with your Steam account.</p>` +
    `<form method="post" action="${OPENID_PATH}">` +
    hiddenFields(request.fields) +
    `<label for="steamid">Steam id</label>` +
    `<input id="steamid" name="steamid" inputmode="numeric" autocomplete="username" required ` +
    `value="${escapeHtml(steamid)}" aria-describedby="${described}"${error === undefined ? "" : ' aria-invalid="true"'}>` +
    `<p id="steamid-help" class="note">The simulator signs in whichever player you name (17 digits).</p>` +
    (error === undefined ? "" : `<p id="steamid-error" class="error" role="alert">${escapeHtml(error)}</p>`) +
    `<div class="actions"><button class="primary" type="submit" name="action" value="sign-in">Sign in</button>` +
    `<button class="secondary" type="submit" name="action" value="cancel" formnovalidate>Cancel</button></div>` +
    `</form>`;
  return htmlPage(error === undefined ? 200 : 400, "Sign in through Steam", body);
}

function redirect(returnTo: URL, fields: Iterable<readonly [string, string]>): SimAnswer {
  return { status: 302, location: returnToWith(returnTo, fields) };
}
