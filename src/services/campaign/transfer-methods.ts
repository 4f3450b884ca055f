import type { ServiceImpl } from "@connectrpc/connect";
import type { CampaignService } from "../../../gen/encore/campaign/v1/campaign_service_pb.js";
import type { ServiceDeps } from "../deps.js";
import { createAcknowledgeTransferItem } from "./acknowledge-transfer-item.js";
import { createPlanTransfer } from "./plan-transfer.js";
import { createStartTransfer } from "./start-transfer.js";

/** Moving the game into the campaign's project (spec 3.3, 4.6): plan, start, acknowledge. */
export function createTransferMethods(deps: ServiceDeps): Partial<ServiceImpl<typeof CampaignService>> {
  return {
    planTransfer: createPlanTransfer(deps),
    startTransfer: createStartTransfer(deps),
    acknowledgeTransferItem: createAcknowledgeTransferItem(deps),
  };
}
