// A client of every service over one transport, and the reason of a refusal.
// Set ENCORE_URL, ENCORE_API_KEY, ENCORE_ACCOUNT, ENCORE_CAMPAIGN_KEY.
import { createEncoreClients, errorReason } from "@encore-campaigns/client";
import { createNodeTransport } from "@encore-campaigns/client/node";

const { ENCORE_URL, ENCORE_API_KEY, ENCORE_ACCOUNT, ENCORE_CAMPAIGN_KEY } = process.env;
const encore = createEncoreClients(
  createNodeTransport({ baseUrl: ENCORE_URL, apiKey: ENCORE_API_KEY, protocol: "connect" }),
);
const funding = await encore.campaigns.getPublicFunding({ campaignKey: ENCORE_CAMPAIGN_KEY });
console.log(`funded: ${funding.funded}`);
const { campaigns } = await encore.campaigns.listCampaigns({ parent: ENCORE_ACCOUNT });
try {
  await encore.campaigns.updateCampaign({
    campaign: { name: campaigns[0].name, displayName: "Renamed", etag: "stale" },
    updateMask: { paths: ["display_name"] },
  });
} catch (error) {
  console.log(`refused: ${errorReason(error)}`); // the refusal's ErrorInfo reason, or undefined
}
