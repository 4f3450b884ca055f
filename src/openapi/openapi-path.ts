import type { DescField } from "@bufbuild/protobuf";
import type { Route } from "../transcode/route-table.js";

/** One path parameter of an OpenAPI path, and the part of a request field it fills. */
export interface PathParameter {
  readonly name: string;
  /** The request field (dotted JSON names) whose value this segment is part of. */
  readonly field: string;
  /** How the field's whole value is spelled, with this parameter among the others. */
  readonly pattern: string;
  /** `**`: the rest of the path, slashes included. */
  readonly rest: boolean;
}

export interface OpenApiPath {
  readonly path: string;
  readonly parameters: readonly PathParameter[];
}

/**
 * A route's template as an OpenAPI path. OpenAPI parameters cannot hold a slash, so a variable
 * spanning several segments (`{name=accounts/*\/campaigns/*}`) is written out literal by
 * literal with one parameter per wildcard named after the collection before it, as Google's
 * discovery documents do (`/v1/accounts/{accountsId}/campaigns/{campaignsId}`).
 */
export function openApiPath(route: Route): OpenApiPath {
  const { segments, variables, verb } = route.template;
  const used = new Set<string>();
  const unique = (base: string) => {
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}${n}`;
    used.add(name);
    return name;
  };
  const owners: (PathParameter & { variable: number })[] = [];
  const parts = segments.map((segment, i) => {
    if (segment.kind === "literal") return segment.value;
    const owner = variables.findIndex((v) => i >= v.start && i < v.end);
    const variable = variables[owner];
    const field = variable === undefined ? "" : jsonPath(route.pathFields.get(variable.fieldPath.join(".")) ?? []);
    const previous = segments[i - 1];
    const single = variable !== undefined && variable.end - variable.start === 1;
    const base = single ? field.replaceAll(".", "_") : previous?.kind === "literal" ? `${previous.value}Id` : "segment";
    const name = unique(base);
    owners.push({ name, field, pattern: "", rest: segment.kind === "deep-wildcard", variable: owner });
    return `{${name}}`;
  });
  const parameters: PathParameter[] = owners.map(({ variable, ...p }) => {
    const v = variables[variable];
    return { ...p, pattern: v === undefined ? `{${p.name}}` : parts.slice(v.start, v.end).join("/") };
  });
  return { path: `/${parts.join("/")}${verb === undefined ? "" : `:${verb}`}`, parameters };
}

function jsonPath(fields: readonly DescField[]): string {
  return fields.map((f) => f.jsonName).join(".");
}
