import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { expect } from "vitest";
import type { RestResult } from "../support/test-server.js";

// The checked-in OpenAPI document as a validator in proxy mode reads it: which operation a
// request reaches, what statuses that operation declares, and the schema of each answer's body
// (JSON Schema 2020-12, as OpenAPI 3.1).

export interface Operation {
  operationId: string;
  security?: unknown[];
  parameters: { name: string; in: string; schema?: { pattern?: string } }[];
  requestBody?: { content: { "application/json": { schema: unknown } } };
  responses: Record<string, { $ref?: string }>;
}

export interface Located {
  path: string;
  method: string;
  operation: Operation;
}

const documentPath = fileURLToPath(new URL("../../openapi/encore.openapi.json", import.meta.url));
const document = JSON.parse(readFileSync(documentPath, "utf8")) as {
  paths: Record<string, Record<string, Operation>>;
};

/** Every operation of the document, with its path template and HTTP method (lower case). */
export const operations: Located[] = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
);

export const pointer = (...parts: string[]) =>
  parts.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat("uint32", true);
ajv.addFormat("uint64", true);
ajv.addSchema(document, "openapi.json");

/** Undefined when `value` validates against the schema at `ref`, else what is wrong. */
export const validate = (ref: string, value: unknown): string | undefined => {
  const check = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  return check(value) ? undefined : ajv.errorsText(check.errors);
};

// Each path template as a pattern: a parameter is one segment unless its schema takes the rest.
const matchers = operations.map((located) => {
  const source = located.path
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^$()[\]\\|]/g, "\\$&");
      const schema = located.operation.parameters.find((p) => p.in === "path" && p.name === name)?.schema;
      return schema?.pattern === "^.+$" ? "(.+)" : "([^/]+)";
    })
    .join("");
  return { located, pattern: new RegExp(`^${source}$`), literal: located.path.replace(/\{\w+\}/g, "").length };
});

/** The operation a request reaches: of the templates matching its path, the most literal. */
export function operationAt(method: string, url: string): Located | undefined {
  const path = url.split("?")[0] ?? "";
  const found = matchers
    .filter((m) => m.located.method === method.toLowerCase() && m.pattern.test(path))
    .sort((a, b) => b.literal - a.literal);
  return found[0]?.located;
}

/**
 * Whatever a call answered, the document must have said it could: the status is one the
 * operation declares, and the body validates against that status's schema.
 */
export function expectDocumented(method: string, url: string, answer: RestResult): void {
  const located = operationAt(method, url);
  const call = `${method} ${url}`;
  expect(located, `${call} reaches an operation of the document`).toBeDefined();
  if (located === undefined) return;
  const where = `${located.operation.operationId} (${call})`;
  const status = String(answer.status);
  const response = located.operation.responses[status];
  expect(
    response,
    `${where}: status ${status} is documented; it answered ${JSON.stringify(answer.body)}`,
  ).toBeDefined();
  const schemaAt = response?.$ref
    ? `openapi.json${response.$ref}/content/application~1json/schema`
    : `openapi.json#${pointer("", "paths", located.path, located.method, "responses", status, "content", "application/json", "schema")}`;
  expect(validate(schemaAt, answer.body), `${where}: response body ${JSON.stringify(answer.body)}`).toBeUndefined();
  expect(answer.headers.get("content-type"), `${where}: content type`).toMatch(/^application\/json/);
}
