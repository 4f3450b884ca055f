import { type DescMethod, getOption, hasOption } from "@bufbuild/protobuf";
import { http } from "../../gen/google/api/annotations_pb.js";

const known = new WeakMap<DescMethod, boolean>();

/**
 * Public calls are those bound under `/v1/public/` (spec 9.1): no credential is read, and they
 * are rate limited. Decided once per method; the answer is asked on every call.
 */
export function isPublicMethod(method: DescMethod): boolean {
  let answer = known.get(method);
  if (answer === undefined) {
    const pattern = hasOption(method, http) ? getOption(method, http).pattern : undefined;
    answer = pattern?.case === "post" && pattern.value.startsWith("/v1/public/");
    known.set(method, answer);
  }
  return answer;
}
