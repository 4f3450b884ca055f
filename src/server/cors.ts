import type { RequestHandler } from "./listener.js";

type Req = Parameters<RequestHandler>[0];
type Res = Parameters<RequestHandler>[1];

export interface CorsOptions {
  /** The origins the operator allowed (operator_settings.allowed_origins). */
  allowedOrigins: () => Promise<readonly string[]>;
  /** How long the list is reused before it is read again. */
  cacheMs: number;
}

/** Decides CORS for one request: true when it answered the request (a preflight). */
export type Cors = (req: Req, res: Res) => Promise<boolean>;

// Reference api-conventions 8: what Connect, gRPC-web and JSON clients send and must read.
const ALLOW_HEADERS =
  "Content-Type, Connect-Protocol-Version, Connect-Timeout-Ms, Connect-Content-Encoding, " +
  "Connect-Accept-Encoding, Content-Encoding, Accept-Encoding, Grpc-Timeout, X-Grpc-Web, X-User-Agent";
const EXPOSE_HEADERS =
  "Grpc-Status, Grpc-Message, Grpc-Status-Details-Bin, Content-Encoding, Connect-Content-Encoding, X-Request-Id";
const MAX_AGE_SECONDS = "600";

/**
 * Spec 8: a browser game needs its origin allowed by the operator; without that no CORS header
 * is sent. An allowed origin is echoed (never `*`, never `null`); a preflight is answered here,
 * in front of connect-node, which would answer OPTIONS 405.
 */
export function createCors(options: CorsOptions): Cors {
  let cached: { origins: ReadonlySet<string>; until: number } | undefined;
  const allowed = async (origin: string): Promise<boolean> => {
    if (!cached || cached.until <= Date.now()) {
      cached = { origins: new Set(await options.allowedOrigins()), until: Date.now() + options.cacheMs };
    }
    return origin !== "null" && cached.origins.has(origin);
  };

  return async (req, res) => {
    const origin = header(req, "origin");
    if (origin === undefined) return false;
    const preflight = req.method === "OPTIONS" && header(req, "access-control-request-method") !== undefined;
    res.setHeader(
      "vary",
      preflight ? "Origin, Access-Control-Request-Method, Access-Control-Request-Headers" : "Origin",
    );
    const ok = await allowed(origin);
    if (!preflight) {
      if (ok) {
        res.setHeader("access-control-allow-origin", origin);
        res.setHeader("access-control-expose-headers", EXPOSE_HEADERS);
      }
      return false;
    }
    if (ok) {
      res.setHeader("access-control-allow-origin", origin);
      res.setHeader("access-control-allow-methods", "POST");
      res.setHeader("access-control-allow-headers", ALLOW_HEADERS);
      res.setHeader("access-control-max-age", MAX_AGE_SECONDS);
    }
    // A preflight from an origin nobody allowed gets no CORS header: the browser stops there.
    res.writeHead(ok ? 204 : 403);
    res.end();
    return true;
  };
}

function header(req: Req, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
