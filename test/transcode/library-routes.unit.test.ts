import { describe, expect, it } from "vitest";
import { createRouteTable } from "../../src/transcode/route-table.js";
import { ConflictingService, LibraryService } from "./gen/transcode/test/v1/library_pb.js";

// The route table compiled from the transcoder's own test protos (test/transcode/proto): every
// kind of path template, body and verb, with nothing of the product's API in the way.

const table = createRouteTable([LibraryService]);

const summary = (method: string, path: string) => {
  const m = table.match(method, path);
  if (m.kind === "found") return { rpc: m.route.method.name, vars: Object.fromEntries(m.variables) };
  if (m.kind === "wrong-method") return { allowed: [...m.allowed].sort() };
  return "not-found";
};

describe("createRouteTable over LibraryService", () => {
  it("compiles one route per binding, additional bindings included", () => {
    expect(table.routes.map((r) => `${r.httpMethod} ${r.template.source}`)).toEqual([
      "GET /v1/{name=shelves/*/books/*}",
      "POST /v1/{parent=shelves/*}/books",
      "PATCH /v1/{book.name=shelves/*/books/*}",
      "GET /v1/{parent=shelves/*}/books",
      "POST /v1/{name=shelves/*/books/*}:move",
      "POST /v1/stats:get",
      "GET /v1/{shelf=shelves/*}/titles",
      "GET /v1/{path=files/**}",
      "DELETE /v1/{name=shelves/*/books/*}",
      "POST /v1/{name=shelves/*/books/*}:delete",
    ]);
  });

  it("knows where each body goes and which field is the response body", () => {
    const route = (rpc: string, httpMethod: string) => {
      const found = table.routes.find((r) => r.method.name === rpc && r.httpMethod === httpMethod);
      if (found === undefined) throw new Error(`no ${httpMethod} route of ${rpc}`);
      return {
        body: found.body.kind === "field" ? found.body.field.name : found.body.kind,
        responseBody: found.responseBody?.name,
      };
    };
    expect(route("GetBook", "GET")).toEqual({ body: "none", responseBody: undefined });
    expect(route("CreateBook", "POST")).toEqual({ body: "book", responseBody: undefined });
    expect(route("UpdateBook", "PATCH")).toEqual({ body: "book", responseBody: undefined });
    expect(route("MoveBook", "POST")).toEqual({ body: "all", responseBody: undefined });
    expect(route("ListTitles", "GET")).toEqual({ body: "none", responseBody: "titles" });
    expect(route("DeleteBook", "DELETE")).toEqual({ body: "none", responseBody: undefined });
    expect(route("DeleteBook", "POST")).toEqual({ body: "all", responseBody: undefined });
  });

  it.each([
    ["GET", "/v1/shelves/s1/books/b1", { rpc: "GetBook", vars: { name: "shelves/s1/books/b1" } }],
    ["POST", "/v1/shelves/s1/books", { rpc: "CreateBook", vars: { parent: "shelves/s1" } }],
    ["PATCH", "/v1/shelves/s1/books/b1", { rpc: "UpdateBook", vars: { "book.name": "shelves/s1/books/b1" } }],
    ["GET", "/v1/shelves/s1/books", { rpc: "ListBooks", vars: { parent: "shelves/s1" } }],
    ["POST", "/v1/shelves/s1/books/b1:move", { rpc: "MoveBook", vars: { name: "shelves/s1/books/b1" } }],
    ["POST", "/v1/stats:get", { rpc: "GetStats", vars: {} }],
    ["GET", "/v1/shelves/s1/titles", { rpc: "ListTitles", vars: { shelf: "shelves/s1" } }],
    ["GET", "/v1/files/a/b/c.txt", { rpc: "GetFile", vars: { path: "files/a/b/c.txt" } }],
    // `**` also matches no segment at all.
    ["GET", "/v1/files", { rpc: "GetFile", vars: { path: "files" } }],
    ["DELETE", "/v1/shelves/s1/books/b1", { rpc: "DeleteBook", vars: { name: "shelves/s1/books/b1" } }],
    ["POST", "/v1/shelves/s1/books/b1:delete", { rpc: "DeleteBook", vars: { name: "shelves/s1/books/b1" } }],
    // Multi-segment variables keep an encoded "/" encoded; single-segment parts are decoded.
    ["GET", "/v1/shelves/s%2F1/books/b%201", { rpc: "GetBook", vars: { name: "shelves/s%2F1/books/b 1" } }],
    ["GET", "/v1/files/a%2Fb", { rpc: "GetFile", vars: { path: "files/a%2Fb" } }],
    ["PUT", "/v1/shelves/s1/books/b1", { allowed: ["DELETE", "GET", "PATCH"] }],
    ["GET", "/v1/stats:get", { allowed: ["POST"] }],
    ["POST", "/v1/stats:count", "not-found"],
    ["POST", "/v1/stats:gets", "not-found"],
    ["GET", "/v1/shelves/s1/books/b1/pages", "not-found"],
    ["GET", "/v1/shelves//books/b1", "not-found"],
    ["GET", "/v2/shelves/s1/books/b1", "not-found"],
  ])("%s %s", (method, path, expected) => {
    expect(summary(method, path)).toEqual(expected);
  });
});

describe("createRouteTable conflict detection", () => {
  it("refuses two services whose routes match the same requests, naming both methods", () => {
    expect(() => createRouteTable([LibraryService, ConflictingService])).toThrow(
      "conflicting http routes: GET /=v1/=shelves/*/=books/* is bound by transcode.test.v1.LibraryService.GetBook and transcode.test.v1.ConflictingService.FetchBook",
    );
  });

  it("compiles either service alone", () => {
    expect(createRouteTable([ConflictingService]).routes).toHaveLength(1);
  });
});
