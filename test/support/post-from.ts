import http from "node:http";
import https from "node:https";
import type { RestResult } from "./test-server.js";

interface PostOptions {
  /** The socket address the call comes from (the one the service keys its limits on). */
  localAddress?: string;
  /** The certificate to trust over HTTPS. */
  ca?: Buffer;
  headers?: Record<string, string>;
  /** false: a connection of its own, as a new client's. */
  agent?: false;
}

function post(url: string, body: unknown, { headers = {}, ...options }: PostOptions) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = (url.startsWith("https:") ? https : http).request(
      url,
      { method: "POST", ...options, headers: { "content-type": "application/json", ...headers } },
      (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

/** POSTs JSON from a chosen local address (the socket address the service keys its limits on). */
export async function postFrom(
  baseUrl: string,
  localAddress: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Pick<RestResult, "status" | "body">> {
  const { status, text } = await post(`${baseUrl}${path}`, body, { localAddress, headers });
  return { status, body: text ? JSON.parse(text) : undefined };
}

/**
 * POSTs JSON on a connection of its own (no keep-alive: each call is a new client's), from
 * `localAddress` when given, trusting `ca` over HTTPS; answers the status alone.
 */
export async function statusFrom(
  url: string,
  body: unknown,
  options: { localAddress?: string; ca?: Buffer } = {},
): Promise<number> {
  return (await post(url, body, { ...options, agent: false })).status;
}
