// One HTTP exchange with Steam, classified into a PlatformResult (reference 1.6):
//   200 -> the JSON body, or the text of a non-JSON answer (OpenID's key-value form, reference
//          11) when asked for text (application failures inside it are the caller's to read);
//   401/403 with a key -> refused, keyRejected; other 4xx except 429 -> refused (our bug, never retried);
//   429, 5xx, timeout, connection error, non-JSON 200 -> unavailable.
// Reads (GET) are retried with exponential backoff; writes never are, because Valve's rules
// after a lost InitTxn/FinalizeTxn reply are "new order" / "QueryTxn first" (reference 1.7).

import type { Agent } from "undici";
import { ExchangeTimedOut, exchange } from "./http-exchange.js";
import type { PlatformResult } from "./steam-platform.js";

/** The subset of a pino logger the client uses. */
export type SteamLogger = {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
};

/** Monitoring's view of the client (metrics and trace spans; src/telemetry builds one). */
export type SteamCallObserver = {
  /** Runs one call, every attempt included, e.g. inside a trace span. */
  around<T>(call: string, run: () => Promise<PlatformResult<T>>): Promise<PlatformResult<T>>;
  /** One HTTP exchange ended (a retried read reports each). */
  attempt(call: string, outcome: PlatformResult<unknown>["kind"], seconds: number): void;
};

export type SteamHttpOptions = {
  readonly timeoutMs: number;
  readonly readRetries: number;
  readonly retryBackoffMs: number;
  readonly logger?: SteamLogger;
  readonly observer?: SteamCallObserver;
};

export type SteamRequest = {
  /** Steam's method name, for logs (e.g. "InitTxn"). */
  readonly call: string;
  readonly url: URL;
  readonly method: "GET" | "POST";
  readonly publisherKey?: string;
  /** Form body for POST (reference 1.3: application/x-www-form-urlencoded). */
  readonly form?: URLSearchParams;
  /** What a 200 carries: JSON (default, parsed) or text (answered as the string). */
  readonly answer?: "json" | "text";
};

export type SteamHttp = {
  send(req: SteamRequest): Promise<PlatformResult<unknown>>;
  close(): Promise<void>;
};

export function createSteamHttp(options: SteamHttpOptions): SteamHttp {
  // Keep-alive pool shared by every call of this client. undici is loaded with the first call,
  // not at start: evaluating it was about a tenth of the service's start (docs/performance.md).
  let undici: Promise<Agent> | undefined;
  const connect = () =>
    (undici ??= import("./undici-client.js").then(
      ({ Agent }) => new Agent({ keepAliveTimeout: 30_000, connections: 32 }),
    ));

  async function sendOnce(agent: Agent, req: SteamRequest): Promise<PlatformResult<unknown>> {
    const wantsText = req.answer === "text";
    const headers: Record<string, string> = { accept: wantsText ? "text/plain" : "application/json" };
    if (req.publisherKey !== undefined) headers["x-webapi-key"] = req.publisherKey;
    if (req.form !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
    try {
      const { status, text: body } = await exchange(
        agent,
        { url: req.url, method: req.method, headers, ...(req.form && { body: req.form.toString() }) },
        options.timeoutMs,
      );
      if (status === 200 && wantsText) return { kind: "ok", value: body };
      return classifyResponse(status, body, req.publisherKey);
    } catch (error) {
      return { kind: "unavailable", cause: redactKey(describeError(error, options.timeoutMs), req.publisherKey) };
    }
  }

  async function sendWithRetries(req: SteamRequest): Promise<PlatformResult<unknown>> {
    // Outside the timed attempts: loading undici is not Steam's latency.
    const http = await connect();
    const attempts = req.method === "GET" ? 1 + options.readRetries : 1;
    let result: PlatformResult<unknown> = { kind: "unavailable", cause: "not attempted" };
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await sleep(options.retryBackoffMs * 2 ** (attempt - 1));
      const started = performance.now();
      result = await sendOnce(http, req);
      const ms = performance.now() - started;
      options.observer?.attempt(req.call, result.kind, ms / 1000);
      log(req, result, { attempt, durationMs: Math.round(ms) });
      if (result.kind !== "unavailable") break;
    }
    return result;
  }

  const { observer } = options;
  const send = observer
    ? (req: SteamRequest) => observer.around(req.call, () => sendWithRetries(req))
    : sendWithRetries;

  function log(req: SteamRequest, result: PlatformResult<unknown>, extra: object): void {
    const fields = { call: req.call, path: req.url.pathname, outcome: result.kind, ...extra };
    if (result.kind === "ok") options.logger?.debug(fields, "steam call");
    else if (result.kind === "refused")
      options.logger?.warn({ ...fields, code: result.code, description: result.description }, "steam refused");
    else options.logger?.warn({ ...fields, cause: result.cause }, "steam unavailable");
  }

  return {
    send,
    close: async () => {
      if (undici) await (await undici).close();
    },
  };
}

function classifyResponse(status: number, text: string, publisherKey: string | undefined): PlatformResult<unknown> {
  if (status === 200) {
    try {
      return { kind: "ok", value: parseSteamJson(text) };
    } catch {
      // Under load Steam can answer 200 with an HTML page (reference 5).
      return { kind: "unavailable", cause: "HTTP 200 with a body that is not JSON" };
    }
  }
  if (status === 429 || status >= 500) return { kind: "unavailable", cause: `HTTP ${status}` };
  const keyRejected = publisherKey !== undefined && (status === 401 || status === 403);
  return {
    kind: "refused",
    code: `HTTP_${status}`,
    description: redactKey(htmlToText(text), publisherKey),
    keyRejected,
  };
}

// Steam returns 64-bit ids as JSON strings (reference 1.4), but older method versions and some
// proxies emit them as bare numbers, which JSON.parse would round past 2^53. Bare digits in the
// known uint64 fields are quoted before parsing so every id survives as its exact decimal string.
const UINT64_FIELDS = ["orderid", "transid", "steamid", "ownersteamid", "gid", "agreementid"];
const BARE_UINT64 = new RegExp(`"(${UINT64_FIELDS.join("|")})"(\\s*):(\\s*)(\\d+)(?=\\s*[,}\\]])`, "g");

/** JSON.parse that keeps uint64 fields as strings; throws SyntaxError like JSON.parse. */
export function parseSteamJson(text: string): unknown {
  return JSON.parse(text.replace(BARE_UINT64, '"$1"$2:$3"$4"'));
}

// Non-200 bodies are HTML (reference 1.6); keep a short plain-text line for logs.
function htmlToText(html: string): string {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 200);
}

function describeError(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return "unknown transport error";
  const code = (error as { code?: unknown }).code;
  if (error instanceof ExchangeTimedOut || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT")
    return `timeout after ${timeoutMs} ms`;
  return typeof code === "string" ? `${code}: ${error.message}` : error.message;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The publisher key never appears in a log line, an error message or a returned value. The client
 * sends it only in the x-webapi-key header (reference 1.2), so it is absent from URLs; every text
 * that leaves the client is still scrubbed, in case a body or error echoes it.
 */
function redactKey(text: string, publisherKey: string | undefined): string {
  if (publisherKey === undefined || publisherKey.length === 0) return text;
  return text.split(publisherKey).join("[redacted]");
}
