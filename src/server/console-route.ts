import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { ownOriginCsp } from "../fund/fund-http.js";
import type { RequestHandler } from "./listener.js";

type Req = Parameters<RequestHandler>[0];
type Res = Parameters<RequestHandler>[1];

export const CONSOLE_PATH = "/console/";

export interface ConsoleRouteOptions {
  /** The console's static build (Vite's output: index.html, assets/): dist/console. */
  dir: string;
  /** What the offer editor shows as you type (STOREFRONT_SHARE_PERCENT), served as settings.json. */
  storefrontSharePercent: number;
}

// A page holding a studio's own token must not run anything but its own files, talk to
// anything but this service, or be framed (Vite emits files; the chart sets styles through the
// DOM, which CSP allows).
export const CONSOLE_CSP = ownOriginCsp("'none'", "'none'");

const SECURITY_HEADERS = {
  "content-security-policy": CONSOLE_CSP,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

// Vite names every file under assets/ by its content's hash: a name never changes meaning.
const IMMUTABLE = "public, max-age=31536000, immutable";
// index.html and the unhashed files: always asked again (answered 304 while unchanged).
const REVALIDATE = "no-cache";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
}

/**
 * `GET /console/...`: the studio console, a static single-page build. Files of the
 * build by path; any other path under /console/ is a client-side route and gets index.html.
 * Without a build (the sources run before `npm run build`) every path says so in a 503 text.
 * Returns true when it answered the request.
 */
export function createConsoleRoute(options: ConsoleRouteOptions) {
  const files = loadBuild(options.dir);
  const settings = Buffer.from(`${JSON.stringify({ storefrontSharePercent: options.storefrontSharePercent })}\n`);
  const settingsFile: StaticFile = {
    body: settings,
    type: TYPES[".json"] as string,
    etag: etagOf(settings),
    cacheControl: "no-store",
  };

  return (req: Req, res: Res): boolean => {
    const path = req.url?.split("?")[0] ?? "";
    if (path !== "/console" && !path.startsWith(CONSOLE_PATH)) return false;
    if (req.method !== "GET" && req.method !== "HEAD") {
      text(res, 405, "The console is read with GET.\n", { allow: "GET, HEAD" });
      return true;
    }
    if (path === "/console") {
      res.writeHead(308, { location: CONSOLE_PATH, ...SECURITY_HEADERS });
      res.end();
      return true;
    }
    const index = files?.get("index.html");
    if (!files || !index) {
      text(res, 503, "The studio console is not built here: `npm run build` writes it to dist/console/.\n");
      return true;
    }
    const name = fileName(path);
    if (name === "settings.json") return send(req, res, settingsFile);
    const file = name === undefined ? undefined : files.get(name);
    if (file) return send(req, res, file);
    // A missing asset is a 404 (a stale page asking for an old bundle), never index.html.
    if (name?.startsWith("assets/") || name?.includes(".")) {
      text(res, 404, "No such file in the console.\n");
      return true;
    }
    return send(req, res, index);
  };
}

/** The file a path names, relative to the build; undefined for a path that is no plain file name. */
function fileName(path: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path.slice(CONSOLE_PATH.length));
  } catch {
    return undefined;
  }
  if (decoded === "") return "index.html";
  const parts = decoded.split("/");
  if (parts.some((part) => part === "" || part === "." || part === ".." || part.includes("\\"))) return undefined;
  return parts.join("/");
}

function send(req: Req, res: Res, file: StaticFile): true {
  const headers = { "content-type": file.type, "cache-control": file.cacheControl, etag: file.etag };
  if (req.headers["if-none-match"] === file.etag) {
    res.writeHead(304, { ...headers, ...SECURITY_HEADERS });
    res.end();
    return true;
  }
  res.writeHead(200, { ...headers, "content-length": file.body.length, ...SECURITY_HEADERS });
  if (req.method === "HEAD") res.end();
  else res.end(file.body);
  return true;
}

function text(res: Res, status: number, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "no-store",
    ...SECURITY_HEADERS,
    ...extra,
  });
  res.end(body);
}

/** Every file of the build, read once at start (a few hundred kilobytes); undefined when there is none. */
function loadBuild(dir: string): Map<string, StaticFile> | undefined {
  if (!existsSync(join(dir, "index.html"))) return undefined;
  const files = new Map<string, StaticFile>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder)) {
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) {
        walk(path);
        continue;
      }
      const name = relative(dir, path).split(sep).join("/");
      const type = TYPES[extname(name)];
      // Only what a browser loads: no source maps, no Vite manifest.
      if (!type || name.startsWith(".vite/")) continue;
      const body = readFileSync(path);
      files.set(name, {
        body,
        type,
        etag: etagOf(body),
        cacheControl: name.startsWith("assets/") ? IMMUTABLE : REVALIDATE,
      });
    }
  };
  walk(dir);
  return files;
}

function etagOf(body: Buffer): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}
