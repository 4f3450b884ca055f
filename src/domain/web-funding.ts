// Where a campaign's public page lives (docs/game-integration.md, "Funding from the web"): on
// the service's own origin (PUBLIC_URL), at a path named by the campaign key the game already
// ships, so the page's link is known before web funding is turned on.

/** The path of a campaign's public page. Campaign keys are url-safe; encoded all the same. */
export function webFundingPath(campaignKey: string): string {
  return `/fund/${encodeURIComponent(campaignKey)}`;
}

/** The page's absolute URL: `{publicUrl}/fund/{campaignKey}` (`publicUrl` an origin, no trailing slash). */
export function webFundingUri(publicUrl: string, campaignKey: string): string {
  return `${publicUrl}${webFundingPath(campaignKey)}`;
}
