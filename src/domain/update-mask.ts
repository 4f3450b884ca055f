// AIP-134 update masks: the mask names the fields to write; no mask means every updatable
// field the request sets; `*` means every updatable field. A path that is not updatable is
// refused rather than silently dropped, so a caller never believes a write happened.

export type MaskResult<F extends string> = { ok: true; fields: ReadonlySet<F> } | { ok: false; path: string };

export interface MaskOptions<F extends string> {
  /** The request's mask paths (protobuf-es FieldMask.paths: proto snake_case names). */
  paths: readonly string[];
  /** Updatable fields, by their proto path. */
  updatable: readonly F[];
  /** Fields the request sets, used when no mask is given. */
  present: readonly F[];
  /** Paths accepted in a mask and ignored (output-only fields, AIP-203). */
  ignored?: readonly string[];
}

export function resolveUpdateMask<F extends string>(options: MaskOptions<F>): MaskResult<F> {
  const { paths, updatable, present, ignored = [] } = options;
  if (paths.length === 0) return { ok: true, fields: new Set(present) };
  const fields = new Set<F>();
  // Mask paths in the JSON spelling (`displayName`) name the same fields as proto paths.
  for (const path of paths.map((path) => path.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`))) {
    if (path === "*") {
      for (const field of updatable) fields.add(field);
    } else if ((updatable as readonly string[]).includes(path)) {
      fields.add(path as F);
    } else if (!ignored.includes(path)) {
      return { ok: false, path };
    }
  }
  return { ok: true, fields };
}
