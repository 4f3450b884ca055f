// Reads a campaign's public funding, lists the studio's campaigns with an API key, and shows
// the reason of a refusal. Set ENCORE_URL, ENCORE_API_KEY, ENCORE_ACCOUNT, ENCORE_CAMPAIGN_KEY.
import { createClient } from "@connectrpc/connect";
import { Campaign_State, CampaignService, errorReason } from "@encore-campaigns/client";
import { createNodeTransport } from "@encore-campaigns/client/node";

const transport = createNodeTransport({
  baseUrl: process.env.ENCORE_URL ?? "http://127.0.0.1:8080",
  apiKey: process.env.ENCORE_API_KEY,
  protocol: "connect", // or "grpc", "grpc-web"
});
const campaigns = createClient(CampaignService, transport);

// What a game shows: public, no key needed (the key is sent anyway and ignored).
const funding = await campaigns.getPublicFunding({ campaignKey: process.env.ENCORE_CAMPAIGN_KEY });
console.log(`funded: ${funding.funded}, purchasable: ${funding.purchasable}`);

// A management call with the API key.
const list = await campaigns.listCampaigns({ parent: process.env.ENCORE_ACCOUNT });
for (const campaign of list.campaigns) {
  console.log(`campaign ${campaign.name}: ${campaign.displayName} (${Campaign_State[campaign.state]})`);
}

// A refusal: an update naming a stale etag is ABORTED with reason ETAG_MISMATCH.
try {
  await campaigns.updateCampaign({
    campaign: { name: list.campaigns[0].name, displayName: "Renamed", etag: "stale" },
    updateMask: { paths: ["display_name"] },
  });
} catch (error) {
  console.log(`stale update refused: ${errorReason(error)}`);
}
