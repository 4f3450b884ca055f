import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { WebhookTarget } from "./address-guard.js";

// One POST of one event: to the address checked at resolution (never resolving the
// host again), the URL's host in Host and TLS SNI so the certificate is checked against it; no
// redirect is followed (a 3xx is an answer, and a failure); the whole attempt is bounded by
// `timeoutMs` from `startedAt` (the host's resolution before it included, docs/webhooks.md
// "Fairness"); only the first bytes of the response body are read.

export const EXCERPT_CHARS = 256;
const EXCERPT_BYTES = 4 * EXCERPT_CHARS;

export interface PostOutcome {
  /** 0 when no response came. */
  statusCode: number;
  latencyMs: number;
  /** Why no response came; empty otherwise. */
  error: string;
  responseExcerpt: string;
}

export function postWebhook(
  target: WebhookTarget,
  options: {
    headers: Record<string, string>;
    body: string;
    timeoutMs: number;
    clock: () => number;
    /** When the attempt began on `clock`; now unless given. */
    startedAt?: number;
  },
): Promise<PostOutcome> {
  const started = options.startedAt ?? options.clock();
  const elapsed = () => Math.max(0, Math.round(options.clock() - started));
  const { url } = target;
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const body = Buffer.from(options.body, "utf8");
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<PostOutcome, "latencyMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      req.destroy();
      resolve({ ...outcome, latencyMs: elapsed() });
    };
    const req = send({
      host: target.address,
      family: target.family,
      port: url.port || (url.protocol === "https:" ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: "POST",
      servername: url.protocol === "https:" ? url.hostname : undefined,
      agent: false,
      headers: {
        ...options.headers,
        host: url.host,
        "content-type": "application/json",
        "content-length": String(body.length),
        "user-agent": "Encore-Webhooks/1",
      },
    });
    const deadline = setTimeout(
      () => finish({ statusCode: 0, error: `no answer within ${options.timeoutMs} ms`, responseExcerpt: "" }),
      Math.max(0, options.timeoutMs - elapsed()),
    );
    deadline.unref();
    req.on("error", (error) => finish({ statusCode: 0, error: describe(error), responseExcerpt: "" }));
    req.on("response", (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () =>
        finish({
          statusCode: response.statusCode ?? 0,
          error: "",
          responseExcerpt: [...Buffer.concat(chunks).toString("utf8")].slice(0, EXCERPT_CHARS).join(""),
        });
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= EXCERPT_BYTES) done();
      });
      response.on("end", done);
      response.on("error", done);
    });
    req.end(body);
  });
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === "string" ? `${code}: ${message}` : message;
}
