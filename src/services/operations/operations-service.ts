import type { ServiceImpl } from "@connectrpc/connect";
import type { Operations } from "../../../gen/google/longrunning/operations_pb.js";
import type { ServiceDeps } from "../deps.js";
import { createPageTokens } from "../page-token.js";
import { createGetOperation } from "./get-operation.js";
import { createListOperations } from "./list-operations.js";

/**
 * google.longrunning.Operations over transfers (spec 4.6: StartTransfer returns an Operation).
 * Delete, Cancel and Wait are not offered: a transfer is a one-way decision that is neither
 * cancelled nor forgotten; the router answers them UNIMPLEMENTED.
 */
export function createOperationsService(deps: ServiceDeps): Partial<ServiceImpl<typeof Operations>> {
  return {
    getOperation: createGetOperation(deps),
    listOperations: createListOperations(deps, createPageTokens(deps.masterKey)),
  };
}
