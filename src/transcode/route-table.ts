import { type DescField, type DescMethod, type DescService, getOption, hasOption } from "@bufbuild/protobuf";
import { http } from "../../gen/google/api/annotations_pb.js";
import type { HttpRule } from "../../gen/google/api/http_pb.js";
import { resolveFieldPath } from "./field-path.js";
import {
  matchPathTemplate,
  type PathTemplate,
  type PathVariables,
  parsePathTemplate,
  splitRequestPath,
  type TemplateSegment,
  templateShape,
} from "./path-template.js";

/** Where the request body goes (api-conventions 4.2). */
export type RouteBody =
  | { readonly kind: "none" }
  | { readonly kind: "all" }
  | { readonly kind: "field"; readonly field: DescField };

/** One HTTP binding of one RPC, with everything a request needs precomputed. */
export interface Route {
  readonly method: DescMethod;
  readonly httpMethod: string;
  readonly template: PathTemplate;
  readonly body: RouteBody;
  readonly responseBody: DescField | undefined;
  /** Dotted field path of each path variable -> the fields it walks through. */
  readonly pathFields: ReadonlyMap<string, readonly DescField[]>;
}

export type RouteMatch =
  | { readonly kind: "found"; readonly route: Route; readonly variables: PathVariables }
  /** The path exists for other HTTP methods only. */
  | { readonly kind: "wrong-method"; readonly allowed: readonly string[] }
  | { readonly kind: "not-found" };

export interface RouteTable {
  readonly routes: readonly Route[];
  match(httpMethod: string, path: string): RouteMatch;
}

/**
 * Compiles every `google.api.http` rule (and its additional_bindings) of the services once at
 * start-up. Throws on a malformed rule or on two routes that would match the same requests,
 * so a bad proto stops the process instead of shadowing a route at run time.
 */
export function createRouteTable(services: readonly DescService[]): RouteTable {
  const routes: Route[] = [];
  const byShape = new Map<string, Route>();
  for (const service of services) {
    for (const method of service.methods) {
      if (!hasOption(method, http)) continue;
      const rule = getOption(method, http);
      for (const binding of [rule, ...rule.additionalBindings]) {
        const route = compileRoute(method, binding, binding !== rule);
        const key = `${route.httpMethod} ${templateShape(route.template)}`;
        const clash = byShape.get(key);
        if (clash !== undefined) {
          throw new Error(
            `conflicting http routes: ${key} is bound by ${clash.method.parent.typeName}.${clash.method.name} and ${method.parent.typeName}.${method.name}`,
          );
        }
        byShape.set(key, route);
        routes.push(route);
      }
    }
  }
  const byMethod = new Map<string, Route[]>();
  for (const route of [...routes].sort(bySpecificity)) {
    const list = byMethod.get(route.httpMethod) ?? [];
    list.push(route);
    byMethod.set(route.httpMethod, list);
  }
  const firstMatch = (list: readonly Route[] | undefined, split: NonNullable<ReturnType<typeof splitRequestPath>>) => {
    for (const route of list ?? []) {
      const variables = matchPathTemplate(route.template, split);
      if (variables !== undefined) return { route, variables };
    }
    return undefined;
  };
  // A path that a template of literals alone binds is looked up directly: it matches that route,
  // and no route ranked before it can match it (literal segments rank first, and two routes for
  // the same paths are refused above). The game's calls are all such paths, and walking the
  // routes was some 3 % of a cached funding:get (docs/performance.md, "The read path").
  const literalRoutes = new Map<string, Map<string, Route>>();
  for (const route of routes) {
    const path = literalPath(route.template);
    if (path === undefined) continue;
    const byPath = literalRoutes.get(route.httpMethod) ?? new Map<string, Route>();
    byPath.set(path, route);
    literalRoutes.set(route.httpMethod, byPath);
  }
  return {
    routes,
    match(httpMethod, path) {
      const literal = literalRoutes.get(httpMethod)?.get(path);
      if (literal !== undefined) return { kind: "found", route: literal, variables: NO_VARIABLES };
      const split = splitRequestPath(path);
      if (split === undefined) return { kind: "not-found" };
      const found = firstMatch(byMethod.get(httpMethod), split);
      if (found !== undefined) return { kind: "found", ...found };
      const allowed = [...byMethod].filter(([m, list]) => m !== httpMethod && firstMatch(list, split)).map(([m]) => m);
      return allowed.length > 0 ? { kind: "wrong-method", allowed } : { kind: "not-found" };
    },
  };
}

const NO_VARIABLES: PathVariables = new Map();

/**
 * The one path a template matches when all its segments are literals and it captures nothing,
 * else undefined (`/v1/{name=operations}` is all literals, and captures `name`).
 */
function literalPath(template: PathTemplate): string | undefined {
  if (template.variables.length > 0) return undefined;
  const values: string[] = [];
  for (const segment of template.segments) {
    if (segment.kind !== "literal") return undefined;
    values.push(segment.value);
  }
  return `/${values.join("/")}${template.verb === undefined ? "" : `:${template.verb}`}`;
}

function compileRoute(method: DescMethod, rule: HttpRule, isAdditional: boolean): Route {
  const where = `${method.parent.typeName}.${method.name}`;
  const fail = (why: string): never => {
    throw new Error(`google.api.http of ${where}: ${why}`);
  };
  if (method.methodKind !== "unary") fail("only unary methods can be transcoded");
  if (isAdditional && rule.additionalBindings.length > 0) fail("additional_bindings cannot nest");
  const pattern = rule.pattern;
  if (pattern.case === undefined) fail("no HTTP method and path");
  const httpMethod =
    pattern.case === "custom" ? (pattern.value?.kind ?? "").toUpperCase() : String(pattern.case).toUpperCase();
  const path = pattern.case === "custom" ? (pattern.value?.path ?? "") : String(pattern.value);
  if (httpMethod === "") fail("custom pattern without kind");
  const template = parsePathTemplate(path);

  const pathFields = new Map<string, readonly DescField[]>();
  for (const v of template.variables) {
    const fields = resolveFieldPath(method.input, v.fieldPath);
    const leaf = fields?.[fields.length - 1];
    if (fields === undefined || leaf === undefined)
      return fail(`path variable "${v.fieldPath.join(".")}" names no field`);
    if (leaf.fieldKind !== "scalar" && leaf.fieldKind !== "enum") {
      fail(`path variable "${v.fieldPath.join(".")}" must be a singular scalar or enum`);
    }
    pathFields.set(v.fieldPath.join("."), fields);
  }
  return {
    method,
    httpMethod,
    template,
    body: compileBody(method, rule.body, fail),
    responseBody:
      rule.responseBody === ""
        ? undefined
        : topLevelField(method.output.fields, rule.responseBody, "response_body", fail),
    pathFields,
  };
}

function compileBody(method: DescMethod, body: string, fail: (why: string) => never): RouteBody {
  if (body === "") return { kind: "none" };
  if (body === "*") return { kind: "all" };
  return { kind: "field", field: topLevelField(method.input.fields, body, "body", fail) };
}

// 4.2: body and response_body name a top-level field by its proto name.
function topLevelField(
  fields: readonly DescField[],
  name: string,
  what: string,
  fail: (why: string) => never,
): DescField {
  const field = fields.find((f) => f.name === name);
  return field ?? fail(`${what} "${name}" names no top-level field`);
}

// Literal segments beat wildcards, and a route with a verb beats one without, so that e.g.
// `/v1/{name=**}` never shadows `/v1/accounts/{id}` or `/v1/{name=**}:cancel`.
function bySpecificity(a: Route, b: Route): number {
  if ((a.template.verb === undefined) !== (b.template.verb === undefined))
    return a.template.verb === undefined ? 1 : -1;
  // A template that ends here is more specific than one going on with `**` (which also
  // matches nothing): `/v1/operations` must win over `/v1/{name=operations/**}` (ListOperations).
  const rank = (s: TemplateSegment | undefined) =>
    s === undefined ? 2 : s.kind === "literal" ? 0 : s.kind === "wildcard" ? 1 : 3;
  const n = Math.max(a.template.segments.length, b.template.segments.length);
  for (let i = 0; i < n; i++) {
    const d = rank(a.template.segments[i]) - rank(b.template.segments[i]);
    if (d !== 0) return d;
  }
  return 0;
}
