import http from "node:http";
import type { Metrics } from "../telemetry/metrics.js";
import { listenOn } from "./listen-on.js";
import type { Listener } from "./listener.js";

export type MetricsListener = Listener;

/**
 * `GET /metrics` on a port of its own (METRICS_PORT), never on the game-facing one: the series
 * name every method and total the credit issued, which is the operator's business only. A
 * scrape that fails answers 500 with no detail; the cause goes to `onError`.
 */
export function createMetricsListener(options: {
  metrics: Pick<Metrics, "scrape" | "contentType">;
  onError: (error: unknown) => void;
}): Listener {
  const server = http.createServer((req, res) => {
    const path = req.url?.split("?")[0];
    if (req.method !== "GET" || path !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n");
      return;
    }
    options.metrics.scrape().then(
      (text) => res.writeHead(200, { "content-type": options.metrics.contentType }).end(text),
      (error: unknown) => {
        options.onError(error);
        res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("scrape failed\n");
      },
    );
  });
  // A scraper holds one keep-alive connection; closing must not wait for it.
  server.keepAliveTimeout = 5_000;
  return {
    listen: (port, host) => listenOn(server, port, host),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
