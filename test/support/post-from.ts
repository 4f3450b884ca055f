import http from "node:http";
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
