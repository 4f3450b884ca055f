import { once } from "node:events";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { clone, create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { createRestHandler } from "../../src/transcode/create-rest-handler.js";
import { type Book, BookSchema, LibraryService } from "./gen/transcode/test/v1/library_pb.js";

// The whole transcoder (route table, binding, rendering, google.rpc.Status) over the test protos
// (test/transcode/proto), in front of a tiny in-memory library: what each binding kind makes
// of a request, and how each failure is answered.

const books = new Map<string, Book>();
const notFound = (name: string) =>
  new ConnectError(`no book ${name}`, Code.NotFound, undefined, [
    { desc: ErrorInfoSchema, value: { reason: "BOOK_NOT_FOUND", domain: "library.test", metadata: { name } } },
  ]);
const find = (name: string) => books.get(name) ?? throwError(notFound(name));
function throwError(error: Error): never {
  throw error;
}

const library: ServiceImpl<typeof LibraryService> = {
  getBook: (req) => find(req.name),
  createBook(req) {
    const book = clone(BookSchema, req.book ?? create(BookSchema));
    book.name = `${req.parent}/books/${req.bookId}`;
    books.set(book.name, book);
    return book;
  },
  updateBook(req) {
    const book = clone(BookSchema, find(req.book?.name ?? ""));
    for (const path of req.updateMask?.paths ?? []) {
      if (path === "title") book.title = req.book?.title ?? "";
      else if (path === "tags") book.tags = req.book?.tags ?? [];
      else throw new ConnectError(`cannot update ${path}`, Code.InvalidArgument);
    }
    books.set(book.name, book);
    return book;
  },
  listBooks: (req) => ({ books: [...books.values()].filter((b) => b.name.startsWith(`${req.parent}/`)), echo: req }),
  moveBook(req) {
    const moved = clone(BookSchema, find(req.name));
    moved.name = `${req.destination}/books/${req.name.split("/").pop()}`;
    books.delete(req.name);
    books.set(moved.name, moved);
    return moved;
  },
  getStats: (req) => ({ books: BigInt(books.size), scope: req.scope }),
  listTitles: (req) => {
    const titles = [...books.values()].filter((b) => b.name.startsWith(`${req.shelf}/`)).map((b) => b.title);
    return { titles, count: titles.length };
  },
  getFile: (req) => {
    if (req.path.endsWith(".secret")) throw new Error("disk says: /etc/shadow");
    return { path: req.path };
  },
  deleteBook(req) {
    find(req.name);
    books.delete(req.name);
    return {};
  },
};

let server: http.Server;
let base: string;

beforeAll(async () => {
  const rest = createRestHandler({
    routes: (router) => router.service(LibraryService, library),
    onInternalError: () => {},
  });
  server = http.createServer(rest);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  books.set(
    "shelves/s1/books/b1",
    create(BookSchema, { name: "shelves/s1/books/b1", title: "Dune", pages: 412n, tags: ["sf"] }),
  );
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    ...(body === undefined
      ? {}
      : {
          headers: { "content-type": "application/json" },
          body: typeof body === "string" ? body : JSON.stringify(body),
        }),
  });
  return { status: res.status, allow: res.headers.get("allow"), json: (await res.json()) as unknown };
}

const bookJson = (fields: Record<string, unknown>) => ({
  name: "",
  title: "",
  author: null,
  tags: [],
  pages: "0",
  genre: "GENRE_UNSPECIFIED",
  ...fields,
});

describe("REST over the transcoder's test protos", () => {
  it("GET with a multi-segment variable: the resource as canonical JSON", async () => {
    expect(await call("GET", "/v1/shelves/s1/books/b1")).toMatchObject({
      status: 200,
      json: bookJson({ name: "shelves/s1/books/b1", title: "Dune", pages: "412", tags: ["sf"] }),
    });
  });

  it("POST with body into one field, the parent from the path and an id from the query", async () => {
    const body = { title: "Emma", author: { displayName: "Austen" }, pages: "9007199254740993", genre: 1 };
    expect(await call("POST", "/v1/shelves/s2/books?book_id=b2", body)).toEqual({
      status: 200,
      allow: null,
      json: bookJson({
        name: "shelves/s2/books/b2",
        title: "Emma",
        author: { displayName: "Austen", living: false },
        pages: "9007199254740993",
        genre: "GENRE_FICTION",
      }),
    });
  });

  it("PATCH with a nested path variable, the body into that message and the update mask from the query", async () => {
    await call("POST", "/v1/shelves/s3/books?bookId=b3", { title: "Old", tags: ["x"] });
    const res = await call("PATCH", "/v1/shelves/s3/books/b3?updateMask=title", { title: "New", tags: ["y"] });
    expect(res).toMatchObject({ status: 200, json: { name: "shelves/s3/books/b3", title: "New", tags: ["x"] } });
    // The body's name must agree with the path's.
    const conflict = await call("PATCH", "/v1/shelves/s3/books/b3?updateMask=title", { name: "shelves/s3/books/b9" });
    expect(conflict).toMatchObject({ status: 400, json: { code: Code.InvalidArgument } });
    expect((conflict.json as { message: string }).message).toContain("book.name");
  });

  it("GET with every kind of query parameter: scalars, enums, repeated, nested, wrappers, timestamps", async () => {
    const query = [
      "pageSize=5",
      "tags=a",
      "tags=b",
      "genre=GENRE_FICTION",
      "genres=2",
      "genres=GENRE_FICTION",
      "author.displayName=Ann%20Leckie",
      "author.living=true",
      "min_pages=100",
      "addedAfter=2026-01-01T00:00:00Z",
      "includeLoaned=1",
      "parent=shelves/evil",
      "unknown=1",
    ].join("&");
    const res = await call("GET", `/v1/shelves/s1/books?${query}`);
    expect(res.status).toBe(200);
    expect((res.json as { echo: unknown }).echo).toEqual({
      parent: "shelves/s1",
      pageSize: 5,
      tags: ["a", "b"],
      genre: "GENRE_FICTION",
      genres: ["GENRE_NONFICTION", "GENRE_FICTION"],
      author: { displayName: "Ann Leckie", living: true },
      minPages: "100",
      addedAfter: "2026-01-01T00:00:00Z",
      includeLoaned: true,
    });
  });

  it.each([
    ["a message named by the query", "/v1/shelves/s1/books?author=Ann"],
    ["a bool that is not one", "/v1/shelves/s1/books?includeLoaned=maybe"],
    ["a singular parameter twice", "/v1/shelves/s1/books?pageSize=1&pageSize=2"],
  ])("refuses %s with 400 code 3", async (_, path) => {
    expect(await call("GET", path)).toMatchObject({ status: 400, json: { code: Code.InvalidArgument, details: [] } });
  });

  it("POST to a custom verb with body *: the name from the path, the query ignored", async () => {
    await call("POST", "/v1/shelves/s4/books?bookId=b4", { title: "Moved" });
    const res = await call("POST", "/v1/shelves/s4/books/b4:move?destination=shelves/nowhere", {
      destination: "shelves/s5",
    });
    expect(res).toMatchObject({ status: 200, json: { name: "shelves/s5/books/b4", title: "Moved" } });
  });

  it("POST to a verb on a literal path; another method there is 501 code 12 with Allow", async () => {
    expect(await call("POST", "/v1/stats:get", { scope: "all" })).toMatchObject({
      status: 200,
      json: { scope: "all" },
    });
    expect(await call("GET", "/v1/stats:get")).toMatchObject({
      status: 501,
      allow: "POST",
      json: { code: Code.Unimplemented, details: [] },
    });
  });

  it("answers response_body's field alone", async () => {
    await call("POST", "/v1/shelves/s6/books?bookId=b6", { title: "Only title" });
    expect(await call("GET", "/v1/shelves/s6/titles")).toEqual({ status: 200, allow: null, json: ["Only title"] });
  });

  it("binds a deep wildcard to the rest of the path, an encoded slash kept encoded", async () => {
    expect(await call("GET", "/v1/files/a/b%2Fc/d.txt")).toEqual({
      status: 200,
      allow: null,
      json: { path: "files/a/b%2Fc/d.txt" },
    });
  });

  it("serves additional bindings like the main one", async () => {
    await call("POST", "/v1/shelves/s7/books?bookId=b7", {});
    await call("POST", "/v1/shelves/s7/books?bookId=b8", {});
    expect(await call("DELETE", "/v1/shelves/s7/books/b7")).toEqual({ status: 200, allow: null, json: {} });
    expect(await call("POST", "/v1/shelves/s7/books/b8:delete", {})).toEqual({ status: 200, allow: null, json: {} });
    expect(await call("GET", "/v1/shelves/s7/titles")).toMatchObject({ json: [] });
  });

  it("answers an implementation's refusal as google.rpc.Status with its details", async () => {
    expect(await call("GET", "/v1/shelves/s1/books/nope")).toEqual({
      status: 404,
      allow: null,
      json: {
        code: Code.NotFound,
        message: "no book shelves/s1/books/nope",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: "BOOK_NOT_FOUND",
            domain: "library.test",
            metadata: { name: "shelves/s1/books/nope" },
          },
        ],
      },
    });
  });

  it("answers an unexpected failure 500 code 13 without its message", async () => {
    expect(await call("GET", "/v1/files/x.secret")).toEqual({
      status: 500,
      allow: null,
      json: { code: Code.Internal, message: "internal error", details: [] },
    });
  });

  it("answers a path no binding has 404 code 5, and a body that is not JSON 400 code 3", async () => {
    expect(await call("GET", "/v1/shelves")).toMatchObject({ status: 404, json: { code: Code.NotFound } });
    expect(await call("POST", "/v1/stats:get", "{not json")).toMatchObject({
      status: 400,
      json: { code: Code.InvalidArgument },
    });
  });
});
