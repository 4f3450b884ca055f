import type { DescEnum, DescField, DescMessage, DescMethod, DescService } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { codeToHttpStatus } from "@connectrpc/connect/protocol-connect";
import { StatusSchema } from "../../gen/google/rpc/status_pb.js";
import { ACCEPTED_CODINGS } from "../transcode/content-coding.js";
import { createRouteTable, type Route } from "../transcode/route-table.js";
import { createMessageSchemas, described, type JsonSchema, type MessageSchemas } from "./message-schemas.js";
import { openApiPath, type PathParameter } from "./openapi-path.js";
import { queryParameters } from "./query-parameters.js";

export interface OpenApiOptions {
  /** Every service whose `google.api.http` bindings are served. */
  readonly services: readonly DescService[];
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  /** True for calls that read no credential; every other call needs `Authorization: Bearer`. */
  readonly isPublic: (method: DescMethod) => boolean;
  /**
   * True for the public calls that still answer 401 (a player the platform does not vouch for,
   * spec 5.1); a call that is not public may answer 401 anyway. Default: none.
   */
  readonly checksPlayer?: (method: DescMethod) => boolean;
  /** A description for an element (its proto comment), if any. */
  readonly describe?: (desc: DescService | DescMethod | DescMessage | DescEnum | DescField) => string | undefined;
}

export type OpenApiDocument = { [key: string]: unknown };

/**
 * The OpenAPI 3.1 document of every HTTP binding, read from the descriptors by the same route
 * table the REST transcoder serves (src/transcode/route-table.ts), so the two cannot disagree
 * on a path, a body or a response body.
 */
export function buildOpenApi(options: OpenApiOptions): OpenApiDocument {
  const schemas = createMessageSchemas({ describe: options.describe });
  const errors = errorResponses(schemas);
  const paths: Record<string, Record<string, unknown>> = {};
  const table = createRouteTable(options.services);
  const seen = new Map<DescMethod, number>();
  for (const route of table.routes) {
    const n = seen.get(route.method) ?? 0;
    seen.set(route.method, n + 1);
    const { path, parameters } = openApiPath(route);
    const item = paths[path] ?? {};
    paths[path] = item;
    item[route.httpMethod.toLowerCase()] = operation(route, n, parameters, { options, schemas, errors });
  }
  return {
    openapi: "3.1.0",
    info: options.info,
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    tags: options.services.map((s) => ({ name: s.typeName, ...described(options.describe?.(s)) })),
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas: sortKeys(schemas.components()),
      responses: errors.components,
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description:
            "`Authorization: Bearer <token>`: an account's API key or member session token; the operator token for /v1/operator/*.",
        },
      },
    },
  };
}

function operation(
  route: Route,
  binding: number,
  parameters: readonly PathParameter[],
  { options, schemas, errors }: { options: OpenApiOptions; schemas: MessageSchemas; errors: ErrorResponses },
) {
  const { method } = route;
  const isPublic = options.isPublic(method);
  const body =
    route.body.kind === "none"
      ? undefined
      : route.body.kind === "all"
        ? schemas.ref(method.input, "input")
        : bodyFieldSchema(route.body.field, schemas);
  const response =
    route.responseBody === undefined
      ? schemas.ref(method.output, "output")
      : schemas.field(route.responseBody, "output");
  return {
    operationId: `${method.parent.typeName}.${method.name}${binding === 0 ? "" : `.${binding}`}`,
    tags: [method.parent.typeName],
    summary: `${method.parent.name}.${method.name}`,
    ...described(options.describe?.(method)),
    ...(isPublic ? { security: [] } : {}),
    parameters: [
      ...parameters.map((p) => ({
        name: p.name,
        in: "path",
        required: true,
        description: `Part of \`${p.field}\`, which is \`${p.pattern}\`${p.rest ? " (the rest of the path, slashes included)" : ""}.`,
        schema: { type: "string", pattern: p.rest ? "^.+$" : "^[^/]+$" },
      })),
      ...(route.body.kind === "all" ? [] : queryParameters(route, schemas)),
    ],
    ...(body === undefined
      ? {}
      : // A request without a body is read as `{}` (bind-request.ts), so none is required.
        { requestBody: { required: false, content: { "application/json": { schema: body } } } }),
    responses: {
      "200": { description: "OK", content: { "application/json": { schema: response } } },
      ...errors.refs({
        unauthenticated: !isPublic || options.checksPlayer?.(method) === true,
        takesBody: route.body.kind !== "none",
      }),
    },
  };
}

// The body is the field's value itself: a message there is an object, never null.
function bodyFieldSchema(field: DescField, schemas: MessageSchemas): JsonSchema {
  const schema = schemas.field(field, "input");
  if (field.fieldKind !== "message") return schema;
  const { description } = schema as { description?: string };
  return { ...schemas.ref(field.message, "input"), ...described(description) };
}

interface ErrorResponses {
  components: Record<string, unknown>;
  /** The error responses of one operation: `$ref`s by HTTP status, only those it can answer. */
  refs(operation: { unauthenticated: boolean; takesBody: boolean }): Record<string, { $ref: string }>;
}

// RFC 9110 15.5.16, as the REST transcoder answers a body in a coding it does not decode
// (src/transcode/create-rest-handler.ts): outside the code table, its body keeps code 3.
const UNSUPPORTED_CODING = 415;

// The one code -> HTTP table every protocol of ours answers with (status-json.ts).
function errorResponses(schemas: MessageSchemas): ErrorResponses {
  const byStatus = new Map<number, string[]>();
  for (let code = Code.Canceled; code <= Code.Unauthenticated; code++) {
    // A canceled call has no one left to answer.
    if (code === Code.Canceled) continue;
    const status = codeToHttpStatus(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), `${codeName(code)} (${code})`]);
  }
  const content = { "application/json": { schema: schemas.ref(StatusSchema, "output") } };
  const responses = new Map<number, unknown>();
  for (const [http, codes] of byStatus) {
    const description = `google.rpc.Status with code ${codes.join(", ")}; details carry google.rpc.ErrorInfo and friends as Any.`;
    responses.set(http, { description, content });
  }
  responses.set(UNSUPPORTED_CODING, unsupportedCoding(content));
  const statuses = [...responses.keys()].sort((a, b) => a - b);
  return {
    components: Object.fromEntries(statuses.map((http) => [`Error${http}`, responses.get(http)])),
    refs({ unauthenticated, takesBody }) {
      const refs: Record<string, { $ref: string }> = {};
      for (const http of statuses) {
        // Spec 5.1: a public call reads no credential; only one checking a player answers 401.
        if (http === 401 && !unauthenticated) continue;
        // A call without a body reads none, so it never answers an unsupported coding.
        if (http === UNSUPPORTED_CODING && !takesBody) continue;
        refs[String(http)] = { $ref: `#/components/responses/Error${http}` };
      }
      return refs;
    },
  };
}

function unsupportedCoding(content: unknown) {
  return {
    description: `The request body's Content-Encoding is not one the service decodes (${ACCEPTED_CODINGS}, or none): google.rpc.Status with code ${codeName(Code.InvalidArgument)} (${Code.InvalidArgument}).`,
    headers: {
      "Accept-Encoding": {
        description: "The codings a request body may be sent in.",
        schema: { type: "string", const: ACCEPTED_CODINGS },
      },
    },
    content,
  };
}

function codeName(code: Code): string {
  return Code[code].replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export type { JsonSchema };
