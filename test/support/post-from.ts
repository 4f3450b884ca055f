import http from "node:http";
import https from "node:https";
import type { RestResult } from "./test-server.js";

/** POSTs JSON from a chosen local address (the socket address the service keys its limits on). */
export function postFrom(
  baseUrl: string,
  localAddress: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Pick<RestResult, "status" | "body">> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}${path}`,
      { method: "POST", localAddress, headers: { "content-type": "application/json", ...headers } },
      (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

/**
 * POSTs JSON on a connection of its own (no keep-alive: each call is a new client's), from
 * `localAddress` when given, trusting `ca` over HTTPS; answers the status alone.
 */
export function statusFrom(
  url: string,
  body: unknown,
  options: { localAddress?: string; ca?: Buffer } = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = (url.startsWith("https:") ? https : http).request(
      url,
      { method: "POST", agent: false, ...options, headers: { "content-type": "application/json" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}
