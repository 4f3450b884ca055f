import type { ServiceImpl } from "@connectrpc/connect";
import type { OperatorService } from "../../../gen/encore/operator/v1/operator_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { createCreateAccount } from "./create-account.js";
import { createCreateSession } from "./create-session.js";
import { createDecideCampaign } from "./decide-campaign.js";
import { createGetSettings } from "./get-settings.js";
import { createListAccounts } from "./list-accounts.js";
import { createListLinkReversals } from "./list-link-reversals.js";
import { createListReconciliationFindings } from "./list-reconciliation-findings.js";
import { createListReviews } from "./list-reviews.js";
import { createReconcileDistributorLink } from "./reconcile-distributor-link.js";
import { createRecordSettlement } from "./record-settlement.js";
import { createReencryptPublisherKeys } from "./reencrypt-publisher-keys.js";
import { createSetOutstandingLimit } from "./set-outstanding-limit.js";
import { createUpdateSettings } from "./update-settings.js";

/**
 * encore.operator.v1.OperatorService: the operator's decisions (DESIGN 1). Only the operator
 * token reaches it (authenticate interceptor), and every handler checks that again.
 */
export function createOperatorService(deps: ServiceDeps): ServiceImpl<typeof OperatorService> {
  return {
    createAccount: createCreateAccount(deps),
    listAccounts: createListAccounts(deps),
    createSession: createCreateSession(deps),
    listReviews: createListReviews(deps),
    decideCampaign: createDecideCampaign(deps),
    setOutstandingLimit: createSetOutstandingLimit(deps),
    recordSettlement: createRecordSettlement(deps),
    reconcileDistributorLink: createReconcileDistributorLink(deps),
    listLinkReversals: createListLinkReversals(deps),
    listReconciliationFindings: createListReconciliationFindings(deps),
    getSettings: createGetSettings(deps),
    updateSettings: createUpdateSettings(deps),
    reencryptPublisherKeys: createReencryptPublisherKeys(deps),
  };
}
