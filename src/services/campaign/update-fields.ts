import { type DescMessage, getOption } from "@bufbuild/protobuf";
import { FieldBehavior, field_behavior } from "../../../gen/google/api/field_behavior_pb.js";
import { resolveUpdateMask } from "../../domain/update-mask.js";
import { invalidArgument } from "../../errors/status.js";

// Accepted in a mask and ignored (AIP-203): the name, the output-only fields, the immutable
// ones (an update never changes them) and the etag, which only conditions the write.
const IGNORED = [FieldBehavior.IDENTIFIER, FieldBehavior.OUTPUT_ONLY, FieldBehavior.IMMUTABLE];

/**
 * The fields an update writes (AIP-134): those its mask names, or without a mask those `given`
 * marks as set (proto3: a zero value is unset). `given` lists every updatable field by its
 * proto path. A mask naming any other field is INVALID_ARGUMENT.
 */
export function updatedFields<F extends string>(options: {
  resource: DescMessage;
  paths: readonly string[];
  given: Record<F, unknown>;
}): ReadonlySet<F> {
  const { resource, given } = options;
  const updatable = Object.keys(given) as F[];
  const mask = resolveUpdateMask<F>({
    paths: options.paths,
    updatable,
    present: updatable.filter((field) => Boolean(given[field])),
    ignored: resource.fields
      .filter((f) => f.name === "etag" || getOption(f, field_behavior).some((b) => IGNORED.includes(b)))
      .map((f) => f.name),
  });
  if (!mask.ok) throw invalidArgument(`"updateMask" names "${mask.path}", which cannot be updated.`);
  return mask.fields;
}
