import type { RequestHandler } from "./listener.js";

export interface HealthOptions {
  /** Resolves when the database answers; rejects otherwise. */
  ready: () => Promise<void>;
}

/**
 * `/healthz`: the process is alive. `/readyz`: it can serve (the database answers).
 * Returns true when it answered the request.
 */
export function createHealthRoutes({ ready }: HealthOptions) {
  return (req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1]): boolean => {
    const path = req.url?.split("?")[0];
    if (req.method !== "GET" || (path !== "/healthz" && path !== "/readyz")) return false;
    const answer = (status: number, body: string) => {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
      res.end(body);
    };
    if (path === "/healthz") {
      answer(200, "ok\n");
      return true;
    }
    ready().then(
      () => answer(200, "ready\n"),
      () => answer(503, "database unavailable\n"),
    );
    return true;
  };
}
