import { type DescMethod, getOption, hasOption } from "@bufbuild/protobuf";
import { http } from "../../../gen/google/api/annotations_pb.js";

// Every write is recorded, no read is. A method bound to GET is a read (AIP-131,
// 132: Get and List are GET; so are our read-only customs such as PlanTransfer); every other
// binding changes something. A method with no binding is named here, so none is guessed.
const UNBOUND_READS = new Set(["google.longrunning.Operations.WaitOperation"]);

const known = new WeakMap<DescMethod, boolean>();

/** Whether a call of `method` changes state, and is therefore recorded whatever its outcome. */
export function isWriteMethod(method: DescMethod): boolean {
  let answer = known.get(method);
  if (answer === undefined) {
    const pattern = hasOption(method, http) ? getOption(method, http).pattern : undefined;
    answer =
      pattern === undefined || pattern.case === undefined
        ? !UNBOUND_READS.has(`${method.parent.typeName}.${method.name}`)
        : pattern.case !== "get";
    known.set(method, answer);
  }
  return answer;
}
