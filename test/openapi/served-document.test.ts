import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiPath } from "../../src/openapi/openapi-path.js";
import { createRouteTable } from "../../src/transcode/route-table.js";
import { PRODUCT_SERVICES } from "../support/product-services.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const documentPath = fileURLToPath(new URL("../../openapi/encore.openapi.json", import.meta.url));

describe("the OpenAPI document", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("is valid OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(documentPath);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("has exactly the routes the transcoder serves: one operation per binding, none more", async () => {
    const document = JSON.parse(await readFile(documentPath, "utf8")) as { paths: Record<string, object> };
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const served = createRouteTable(PRODUCT_SERVICES).routes.map(
      (route) => `${route.httpMethod} ${openApiPath(route).path}`,
    );
    expect(served.length).toBeGreaterThan(50);
    expect([...documented].sort()).toEqual([...served].sort());
  });

  it("is served at GET /openapi.json, exactly as checked in, anonymous and not cached", async () => {
    const response = await fetch(`${server.baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.text()).toBe(await readFile(documentPath, "utf8"));
    const head = await fetch(`${server.baseUrl}/openapi.json`, { method: "HEAD" });
    expect(head.status).toBe(200);
  });
});
