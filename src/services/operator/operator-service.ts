import type { ServiceImpl } from "@connectrpc/connect";
import type { OperatorService } from "../../../gen/encore/operator/v1/operator_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { createAccountMethods } from "./account-methods.js";
import { createLinkMethods } from "./link-methods.js";
import { createReconciliationMethods } from "./reconciliation-methods.js";
import { createRecordSettlement } from "./record-settlement.js";
import { createReencryptPublisherKeys } from "./reencrypt-publisher-keys.js";
import { createReviewMethods } from "./review-methods.js";
import { createSettingsMethods } from "./settings-methods.js";

/**
 * encore.operator.v1.OperatorService: the operator's decisions (DESIGN 1). Only the operator
 * token reaches it (authenticate interceptor), and every handler checks that again.
 */
export function createOperatorService(deps: ServiceDeps): ServiceImpl<typeof OperatorService> {
  return {
    ...createAccountMethods(deps),
    ...createReviewMethods(deps),
    ...createLinkMethods(deps),
    recordSettlement: createRecordSettlement(deps),
    ...createReconciliationMethods(deps),
    ...createSettingsMethods(deps),
    reencryptPublisherKeys: createReencryptPublisherKeys(deps),
  };
}
