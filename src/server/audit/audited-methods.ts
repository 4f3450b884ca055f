import { decidedPerMethod } from "../public-methods.js";

// Every write is recorded, no read is. A method bound to GET is a read (AIP-131,
// 132: Get and List are GET; so are our read-only customs such as PlanTransfer); every other
// binding changes something. A method with no binding is named here, so none is guessed.
const UNBOUND_READS = new Set(["google.longrunning.Operations.WaitOperation"]);

/** Whether a call of `method` changes state, and is therefore recorded whatever its outcome. */
export const isWriteMethod = decidedPerMethod((pattern, method) =>
  pattern === undefined || pattern.case === undefined
    ? !UNBOUND_READS.has(`${method.parent.typeName}.${method.name}`)
    : pattern.case !== "get",
);
