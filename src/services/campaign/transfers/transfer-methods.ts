import type { ServiceDeps } from "../../../core/deps.js";
import { createAcknowledgeTransferItem } from "./acknowledge-transfer-item.js";
import { createPlanTransfer } from "./plan-transfer.js";
import { createStartTransfer } from "./start-transfer.js";

/** Moving the game into the campaign's project (spec 3.3, 4.6): plan, start, acknowledge. */
export function createTransferMethods(deps: ServiceDeps) {
  return {
    planTransfer: createPlanTransfer(deps),
    startTransfer: createStartTransfer(deps),
    acknowledgeTransferItem: createAcknowledgeTransferItem(deps),
  };
}
