import type { RequestHandler } from "./listener.js";

export interface HealthOptions {
  /** Resolves when the database answers; rejects otherwise. */
  ready: () => Promise<void>;
  /** Lines added to `/readyz` about dependencies that do not decide readiness (Redis). */
  detail?: () => string[];
}

/**
 * `/healthz`: the process is alive. `/readyz`: it can serve (the database answers).
 * Returns true when it answered the request.
 */
export function createHealthRoutes({ ready, detail = () => [] }: HealthOptions) {
  return (req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1]): boolean => {
    // Asked of every request before its route: the public calls are POSTs, answered at once.
    if (req.method !== "GET") return false;
    const path = req.url?.split("?")[0];
    if (path !== "/healthz" && path !== "/readyz") return false;
    const answer = (status: number, body: string) => {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
      res.end(body);
    };
    if (path === "/healthz") {
      answer(200, "ok\n");
      return true;
    }
    const lines = (first: string) => `${[first, ...detail()].join("\n")}\n`;
    ready().then(
      () => answer(200, lines("ready")),
      () => answer(503, lines("database unavailable")),
    );
    return true;
  };
}
