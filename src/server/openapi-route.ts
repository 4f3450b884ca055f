import type { RequestHandler } from "./listener.js";

export const OPENAPI_PATH = "/openapi.json";

/**
 * `GET /openapi.json`: the OpenAPI document of every REST binding, as generated into
 * openapi/encore.openapi.json. Anonymous and not rate limited, like /healthz; not cached either
 * (spec 2.1's no-store holds for every response), so a deploy is seen at once.
 * Returns true when it answered the request.
 */
export function createOpenApiRoute(document: string) {
  const body = Buffer.from(document);
  return (req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1]): boolean => {
    if ((req.method !== "GET" && req.method !== "HEAD") || req.url?.split("?")[0] !== OPENAPI_PATH) return false;
    res.writeHead(200, {
      "content-type": "application/json",
      "content-length": body.length,
      "cache-control": "no-store",
    });
    if (req.method === "HEAD") res.end();
    else res.end(body);
    return true;
  };
}
