// The pages a browser visits on "Steam": the OpenID sign-in (reference 11) and the web checkout
// at a steamurl (reference 3.1 "Web flow"). They are not partner Web API calls: they are neither
// logged nor subject to faults, and take no publisher key.

import type { SimAnswer } from "./sim-answer.js";
import { htmlAnswer } from "./sim-answer.js";
import { OPENID_PATH } from "./sim-openid.js";
import { signInPage, submitSignIn } from "./sim-openid-login.js";
import type { SimState } from "./sim-state.js";
import { checkoutPage, checkoutTransid, submitCheckout } from "./sim-web-checkout.js";

export type BrowserRequest = {
  readonly method: string;
  readonly pathname: string;
  readonly query: URLSearchParams;
  /** The POST's form fields (empty for GET or a body that is not a form). */
  readonly form: URLSearchParams;
};

/** The page's answer, or undefined when the request is not for a page (check_authentication included). */
export function answerBrowser(state: SimState, req: BrowserRequest): SimAnswer | undefined {
  const transid = checkoutTransid(req.pathname);
  if (transid !== undefined) {
    if (req.method === "GET") return checkoutPage(state, transid, req.query);
    if (req.method === "POST") return submitCheckout(state, transid, req.form);
    return htmlAnswer(405, "Method Not Allowed", "Method Not Allowed");
  }
  if (req.pathname !== OPENID_PATH) return undefined;
  if (req.method === "GET") return signInPage(req.query);
  // The provider's own verification is a Steam call like the partner API's.
  if (req.method === "POST" && req.form.get("openid.mode") !== "check_authentication")
    return submitSignIn(state, req.form);
  return undefined;
}
