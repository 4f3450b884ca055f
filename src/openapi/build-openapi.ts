import type { DescEnum, DescField, DescMessage, DescMethod, DescService } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { codeToHttpStatus } from "@connectrpc/connect/protocol-connect";
import { StatusSchema } from "../../gen/google/rpc/status_pb.js";
import { createRouteTable, type Route } from "../transcode/route-table.js";
import { createMessageSchemas, type JsonSchema, type MessageSchemas } from "./message-schemas.js";
import { openApiPath } from "./openapi-path.js";
import { queryParameters } from "./query-parameters.js";

export interface OpenApiOptions {
  /** Every service whose `google.api.http` bindings are served. */
  readonly services: readonly DescService[];
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  /** True for calls that read no credential; every other call needs `Authorization: Bearer`. */
  readonly isPublic: (method: DescMethod) => boolean;
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
    item[route.httpMethod.toLowerCase()] = operation({ route, binding: n, options, schemas, errors, parameters });
  }
  return {
    openapi: "3.1.0",
    info: options.info,
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    tags: options.services.map((s) => ({ name: s.typeName, ...describe(options, s) })),
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

interface OperationInput {
  route: Route;
  binding: number;
  options: OpenApiOptions;
  schemas: MessageSchemas;
  errors: ErrorResponses;
  parameters: ReturnType<typeof openApiPath>["parameters"];
}

function operation({ route, binding, options, schemas, errors, parameters }: OperationInput) {
  const { method } = route;
  const isPublic = options.isPublic(method);
  const text = options.describe?.(method);
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
    ...(text === undefined || text === "" ? {} : { description: text }),
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
      ...errors.refs(isPublic),
    },
  };
}

// The body is the field's value itself: a message there is an object, never null.
function bodyFieldSchema(field: DescField, schemas: MessageSchemas): JsonSchema {
  const schema = schemas.field(field, "input");
  if (field.fieldKind !== "message") return schema;
  const { description } = schema as { description?: string };
  return { ...schemas.ref(field.message, "input"), ...(description === undefined ? {} : { description }) };
}

interface ErrorResponses {
  components: Record<string, unknown>;
  /** The error responses of one operation: `$ref`s by HTTP status. */
  refs(isPublic: boolean): Record<string, { $ref: string }>;
}

// The one code -> HTTP table every protocol of ours answers with (status-json.ts).
function errorResponses(schemas: MessageSchemas): ErrorResponses {
  const byStatus = new Map<number, string[]>();
  for (let code = Code.Canceled; code <= Code.Unauthenticated; code++) {
    // A canceled call has no one left to answer.
    if (code === Code.Canceled) continue;
    const status = codeToHttpStatus(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), `${codeName(code)} (${code})`]);
  }
  const status = schemas.ref(StatusSchema, "output");
  const components: Record<string, unknown> = {};
  for (const [http, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    components[`Error${http}`] = {
      description: `google.rpc.Status with code ${codes.join(", ")}; details carry google.rpc.ErrorInfo and friends as Any.`,
      content: { "application/json": { schema: status } },
    };
  }
  return {
    components,
    refs(isPublic) {
      const refs: Record<string, { $ref: string }> = {};
      for (const http of byStatus.keys()) {
        // Spec 5.1: a public call reads no credential, so it is never UNAUTHENTICATED.
        if (isPublic && http === 401) continue;
        refs[String(http)] = { $ref: `#/components/responses/Error${http}` };
      }
      return refs;
    },
  };
}

function codeName(code: Code): string {
  return Code[code].replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
}

function describe(options: OpenApiOptions, service: DescService): { description?: string } {
  const text = options.describe?.(service);
  return text === undefined || text === "" ? {} : { description: text };
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export type { JsonSchema };
