// Reference 3.1 "Web flow": the browser is sent to InitTxn's `steamurl` with `returnurl=<your
// fully specified URL>` appended, where Steam sends it back after the player approves or declines.

/** `steamUrl` with the `returnurl` query parameter set (URL-encoded, after any query it has). */
export function webApprovalUrl(steamUrl: string, returnUrl: string): string {
  const url = new URL(steamUrl);
  url.searchParams.set("returnurl", returnUrl);
  return url.href;
}
