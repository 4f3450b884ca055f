import type { ServiceImpl } from "@connectrpc/connect";
import type { CampaignService } from "../../../gen/encore/campaign/v1/campaign_service_pb.js";

/** CampaignService's methods as its descriptor types them; each group implements some of them. */
export type CampaignImpl = ServiceImpl<typeof CampaignService>;
