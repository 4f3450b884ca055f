import type { ServiceDeps } from "../../../core/deps.js";
import { resources } from "../../../domain/resource-names.js";
import type { CampaignImpl } from "../campaign-impl.js";
import { createAcknowledgeTransferItem } from "./acknowledge-transfer-item.js";
import { planFromHost } from "./host-plan.js";
import { createStartTransfer } from "./start-transfer.js";
import { loadTransferAccess } from "./transfer-access.js";
import { toTransferPlan } from "./transfer-mapper.js";

/** Moving the game into the campaign's project (spec 3.3, 4.6): plan, start, acknowledge. */
export function createTransferMethods(deps: ServiceDeps): TransferMethods {
  return {
    startTransfer: createStartTransfer(deps),
    acknowledgeTransferItem: createAcknowledgeTransferItem(deps),

    /** PlanTransfer (spec 4.6): lists every candidate in every region; changes nothing. */
    async planTransfer(request, ctx) {
      const { campaign, source } = await loadTransferAccess(deps, ctx, request);
      const view = await planFromHost(deps, campaign, source);
      return toTransferPlan(resources.project.format({ accountId: source.accountId, projectId: source.id }), view);
    },
  };
}

type TransferMethods = Pick<CampaignImpl, "planTransfer" | "startTransfer" | "acknowledgeTransferItem">;
