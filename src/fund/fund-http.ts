import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { FUND_CSS } from "./fund-css.js";

// How the funding page answers over HTTP: the security headers of every /fund response, pages,
// redirects, and the small form bodies its POSTs carry.

/** A request over HTTP/1.1 or HTTP/2 (the listener serves both, src/server/listener.ts). */
export type Req = IncomingMessage | Http2ServerRequest;
export type Res = ServerResponse | Http2ServerResponse;

/** A form body is a few short fields; anything larger is not ours. */
const MAX_FORM_BYTES = 4 * 1024;

/**
 * A page that runs nothing but its own files and talks to nothing but this service: no inline
 * script or style, no third-party origin, only `formAction` for its forms and `frameAncestors`
 * framing it. The console's policy (src/server/console-route.ts) and the funding page's.
 */
export function ownOriginCsp(formAction: string, frameAncestors: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action ${formAction}`,
    `frame-ancestors ${frameAncestors}`,
  ].join("; ");
}

/**
 * The console's policy, but for the form targets: a form here posts to this service, whose 303
 * sends the browser on to Steam's sign-in or approval page, and browsers hold that redirect to
 * the page's form-action, so Steam's origins are listed (and no other). `frameAncestors` is who
 * may frame the page (the console's preview).
 */
export function fundSecurityHeaders(formTargets: readonly string[], frameAncestors: string): Record<string, string> {
  const csp = ownOriginCsp(["'self'", ...formTargets].join(" "), frameAncestors);
  return {
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    // Same-origin only: the return URLs carry purchase ids, which no other site is told; and a
    // form's POST must carry its Origin, which "no-referrer" would turn into "null" (Fetch,
    // "append a request Origin header").
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
  };
}

export interface Responder {
  page(res: Res, status: number, body: string, extra?: Record<string, string>): void;
  redirect(res: Res, location: string, extra?: Record<string, string>): void;
  css(req: Req, res: Res): void;
}

export function createResponder(headers: Record<string, string>): Responder {
  return {
    page(res, status, body, extra = {}) {
      res.writeHead(status, {
        ...headers,
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "content-length": Buffer.byteLength(body),
        ...extra,
      });
      res.end(body);
    },
    redirect(res, location, extra = {}) {
      res.writeHead(303, { ...headers, location, "cache-control": "no-store", "content-length": 0, ...extra });
      res.end();
    },
    css(req, res) {
      res.writeHead(200, {
        ...headers,
        "content-type": "text/css; charset=utf-8",
        "content-length": Buffer.byteLength(FUND_CSS),
      });
      if (req.method === "HEAD") res.end();
      else res.end(FUND_CSS);
    },
  };
}

/** A POSTed form's fields; undefined when it is not a form or is too large. */
export async function readForm(req: Req): Promise<URLSearchParams | undefined> {
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/** Whether a POST came from a page of this service (its Origin is PUBLIC_URL's). */
export function fromOwnOrigin(req: Req, publicOrigin: string): boolean {
  return req.headers.origin === publicOrigin;
}
