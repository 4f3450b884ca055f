import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";

/**
 * A load balancer in front of the service, as a game meets one in production, whose failures a
 * scenario runner arms through its control API (docs/game-integration.md "Proving the
 * clients"): the 502 and 504 a gateway answers, a connection reset, and a begin response held
 * back until the runner has played the overlay. Every public call that passes is logged, so
 * verify-scenarios can check what the client really sent against what it reported.
 */
export interface ServiceGateway {
  url: string;
  /** Every public call, in arrival order. */
  exchanges: GatewayExchange[];
  close(): Promise<void>;
}

export interface GatewayExchange {
  path: string;
  /** The JSON request body as the client sent it. */
  body: Record<string, unknown>;
  /** Arrival, ms since the epoch. */
  atMs: number;
  fault?: GatewayFault["kind"];
  /** Whether the service saw the call. */
  forwarded: boolean;
  upstreamStatus?: number;
  /** The service's answer, parsed, when forwarded. */
  upstreamBody?: Record<string, unknown>;
  /** What the client got: an HTTP status, or the connection reset. */
  answered?: number | "reset";
  /** For a held call: what `onRelease` found when the runner released it. */
  release?: Record<string, unknown>;
}

const CONTROL = "/_gateway";

const faultBody = z.object({
  /** A public path, e.g. /v1/public/offers:list. */
  path: z.string().startsWith("/v1/public/"),
  /**
   * status: answer `status` (502, 504) with the gateway's own page; reset: drop the connection
   * without an answer; hold: keep the service's answer until POST /_gateway/release.
   */
  kind: z.enum(["status", "reset", "hold"]),
  status: z.number().int().min(500).max(599).default(502),
  /** For status and reset: the service gets the call first (its answer is what is lost). */
  forward: z.boolean().default(false),
  times: z.number().int().min(1).default(1),
});
type GatewayFault = z.output<typeof faultBody>;

export async function startServiceGateway(options: {
  upstream: string;
  /** Called as a held answer is handed over; what it returns is logged with the exchange. */
  onRelease?: (exchange: GatewayExchange) => Promise<Record<string, unknown>>;
}): Promise<ServiceGateway> {
  const exchanges: GatewayExchange[] = [];
  const faults: (GatewayFault & { remaining: number })[] = [];
  const held: { exchange: GatewayExchange; release: () => void }[] = [];

  async function control(req: IncomingMessage, res: ServerResponse, path: string, text: string): Promise<void> {
    if (req.method === "POST" && path === "/faults") {
      const parsed = faultBody.safeParse(text === "" ? {} : JSON.parse(text));
      if (!parsed.success) return json(res, 400, { error: parsed.error.message });
      faults.push({ ...parsed.data, remaining: parsed.data.times });
      return json(res, 200, {});
    }
    if (req.method === "GET" && path === "/held") {
      return json(res, 200, {
        held: held.map(({ exchange }) => ({ path: exchange.path, body: exchange.upstreamBody })),
      });
    }
    if (req.method === "POST" && path === "/release") {
      const releasing = held.splice(0);
      for (const { exchange, release } of releasing) {
        exchange.release = (await options.onRelease?.(exchange)) ?? {};
        release();
      }
      return json(res, 200, { released: releasing.length });
    }
    return json(res, 404, { error: `no control route ${req.method} ${path}` });
  }

  async function forward(exchange: GatewayExchange, text: string): Promise<{ status: number; text: string }> {
    const answer = await fetch(`${options.upstream}${exchange.path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: text,
    });
    const body = await answer.text();
    exchange.forwarded = true;
    exchange.upstreamStatus = answer.status;
    exchange.upstreamBody = parseObject(body);
    return { status: answer.status, text: body };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://gateway").pathname;
    const text = await readBody(req);
    if (path.startsWith(`${CONTROL}/`)) return control(req, res, path.slice(CONTROL.length), text);
    const exchange: GatewayExchange = { path, body: parseObject(text) ?? {}, atMs: Date.now(), forwarded: false };
    exchanges.push(exchange);
    const fault = takeFault(faults, path);
    exchange.fault = fault?.kind;
    if (fault?.kind === "status" || fault?.kind === "reset") {
      if (fault.forward) await forward(exchange, text);
      if (fault.kind === "reset") {
        exchange.answered = "reset";
        req.socket.destroy();
        return;
      }
      exchange.answered = fault.status;
      res.writeHead(fault.status, { "content-type": "text/html" });
      res.end(
        `<html><body><h1>${fault.status} ${fault.status === 504 ? "Gateway Timeout" : "Bad Gateway"}</h1></body></html>`,
      );
      return;
    }
    const answer = await forward(exchange, text);
    if (fault?.kind === "hold") await new Promise<void>((release) => held.push({ exchange, release }));
    exchange.answered = answer.status;
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(answer.text);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () =>
      new Promise((resolve) => {
        for (const { release } of held.splice(0)) release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The first armed fault for this path, counted down (as the simulator's faults are). */
function takeFault(faults: (GatewayFault & { remaining: number })[], path: string): GatewayFault | undefined {
  const fault = faults.find((f) => f.path === path);
  if (fault === undefined) return undefined;
  fault.remaining -= 1;
  if (fault.remaining <= 0) faults.splice(faults.indexOf(fault), 1);
  return fault;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
