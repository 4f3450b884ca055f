import type { ServiceImpl } from "@connectrpc/connect";
import type { Operations } from "../../../gen/google/longrunning/operations_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { unimplemented } from "../../errors/status.js";
import { createGetOperation } from "./get-operation.js";
import { createListOperations } from "./list-operations.js";

/**
 * google.longrunning.Operations over transfers (spec 4.6: StartTransfer returns an Operation).
 * Delete, Cancel and Wait are not offered: a transfer is a one-way decision that is neither
 * cancelled nor forgotten; they answer UNIMPLEMENTED.
 */
export function createOperationsService(deps: ServiceDeps): ServiceImpl<typeof Operations> {
  const notOffered = (what: string) => async (): Promise<never> => {
    throw unimplemented(`${what} is not offered: a transfer is neither cancelled nor forgotten.`);
  };
  return {
    getOperation: createGetOperation(deps),
    listOperations: createListOperations(deps),
    deleteOperation: notOffered("DeleteOperation"),
    cancelOperation: notOffered("CancelOperation"),
    waitOperation: notOffered("WaitOperation"),
  };
}
