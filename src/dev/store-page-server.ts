import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import { listenOn } from "../server/listen-on.js";

export interface StorePageConfig {
  apiUrl: string;
  campaignKey: string;
  steam: { appId: number; steamid: string; language: string };
  /** The client's retry policy (encore-client.js); its defaults when unset. */
  retry?: { maxAttempts: number; initialBackoffMs: number; maxBackoffMs: number };
  /** How long the client waits for the overlay's answer (encore-client.js); 5 minutes when unset. */
  authorizationTimeoutMs?: number;
}

export interface StorePageServer {
  /** The page's own origin, which the operator must allow (spec 8 CORS). */
  url: string;
  close(): Promise<void>;
}

const PAGE_DIR = fileURLToPath(new URL("../../clients/browser/", import.meta.url));
const FILES = new Set(["index.html", "store.css", "store-page.js", "encore-client.js", "steam-bridges.js"]);
const TYPES: Readonly<Record<string, string>> = {
  html: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
};
// The simulator's control calls the page's simulated Steam makes: a ticket, the overlay's answer.
const SIM_PATHS = /^\/sim(\/tickets|\/orders\/live\/\d{1,20}\/(?:approve|decline))$/;

/**
 * The browser store page (clients/browser) on its own origin, for `npm run dev` and the Chromium
 * test; never part of the production service. It also passes the page's simulated-Steam calls
 * through to the simulator's control API, which sends no CORS headers.
 */
export async function startStorePageServer(options: {
  config: StorePageConfig;
  simUrl: string;
  port?: number;
  host?: string;
}): Promise<StorePageServer> {
  const config = JSON.stringify({ ...options.config, steam: { ...options.config.steam, controlUrl: "/sim" } });
  const server = createServer((req, res) => {
    handle(req, res, config, options.simUrl).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  const host = options.host ?? "127.0.0.1";
  const { port } = await listenOn(server, options.port ?? 0, host);
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, config: string, simUrl: string): Promise<void> {
  const path = new URL(req.url ?? "/", "http://page").pathname;
  const sim = SIM_PATHS.exec(path);
  if (req.method === "POST" && sim) {
    const body = await readBody(req);
    const answer = await fetch(`${simUrl}/_sim${sim[1]}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(await answer.text());
    return;
  }
  if (req.method !== "GET") {
    res.writeHead(405).end();
    return;
  }
  if (path === "/config.json") {
    res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" }).end(config);
    return;
  }
  const file = path === "/" ? "index.html" : path.slice(1);
  if (!FILES.has(file)) {
    res.writeHead(404).end();
    return;
  }
  const type = TYPES[file.slice(file.lastIndexOf(".") + 1)] ?? "application/octet-stream";
  res.writeHead(200, { "content-type": type, "cache-control": "no-store" }).end(await readFile(PAGE_DIR + file));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
