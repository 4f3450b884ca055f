import { readFileSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import net from "node:net";
import type { Duplex } from "node:stream";
import { type ClientAddresses, createClientAddresses } from "./client-address.js";
import { type ConnectionGuard, type ConnectionPolicy, createConnectionGuard } from "./connection-guard.js";
import { listenOn } from "./listen-on.js";
import { readProxyHeader } from "./proxy-protocol.js";

export type RequestHandler = (
  req: http.IncomingMessage | http2.Http2ServerRequest,
  res: http.ServerResponse | http2.Http2ServerResponse,
) => void;

export interface Listener {
  listen(port: number, host: string): Promise<AddressInfo>;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

export interface ListenerOptions {
  handler: RequestHandler;
  tls?: TlsFiles;
  /** Timeouts and caps that keep slow or idle clients from holding the listener. */
  connections: ConnectionPolicy;
  /** Who each connection's client is (client-address.ts); default: its socket's peer. */
  clientAddresses?: ClientAddresses;
}

type TlsFiles = { certFile: string; keyFile: string };

// Every HTTP/2 connection with prior knowledge opens with this preface (RFC 9113 3.4); no
// HTTP/1.1 request line starts with it.
const H2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
// Streams one HTTP/2 client may have open at once (each holds a request timer and a body).
const MAX_CONCURRENT_STREAMS = 100;

/**
 * One port for every protocol: HTTP/1.1 (REST, Connect, gRPC-web) and HTTP/2 (gRPC and the
 * rest), cleartext by sniffing the preface, or TLS with ALPN when a certificate is given. A
 * connection from a proxy named in PROXY_PROTOCOL_FROM first has its PROXY protocol header read,
 * so that the caps and the rate limits count its client, not the proxy (docs/deploy.md "The
 * client address").
 */
export function createListener(options: ListenerOptions): Listener {
  const { handler, connections, clientAddresses = createClientAddresses() } = options;
  const guard = createConnectionGuard(connections);
  const guarded: RequestHandler = (req, res) => {
    guard.request(req, res);
    handler(req, res);
  };
  const serveConnection = options.tls
    ? secureServer(options.tls, guarded, guard)
    : cleartextServers(options, guarded, guard);
  const admit = (socket: net.Socket, client: string) => {
    guard.admit(socket, client);
    if (!socket.destroyed) serveConnection(socket);
  };
  const front = net.createServer((socket) => {
    if (!clientAddresses.fromProxy(socket)) {
      admit(socket, clientAddresses.of(socket));
      return;
    }
    readProxyHeader(socket, connections.headersTimeoutMs).then(
      (client) => {
        if (client !== undefined) clientAddresses.declare(socket, client);
        admit(socket, clientAddresses.of(socket));
      },
      () => socket.destroy(),
    );
  });
  return serve(front, guard);
}

/** TLS with ALPN: HTTP/2, or HTTP/1.1. */
function secureServer(tls: TlsFiles, guarded: RequestHandler, guard: ConnectionGuard): (socket: net.Socket) => void {
  const settings = { maxConcurrentStreams: MAX_CONCURRENT_STREAMS };
  const server = http2.createSecureServer({ ...readTlsFiles(tls), allowHTTP1: true, settings }, guarded);
  // Before http2's own listener, which starts the session on this socket.
  server.prependListener("secureConnection", guard.secured);
  server.on("session", guard.session);
  server.on("clientError", answerMalformed);
  server.on("connect", answerConnect);
  // tls.Server documents 'connection' as the way to hand it a connection accepted elsewhere.
  return (socket) => server.emit("connection", socket);
}

/** Cleartext: HTTP/2 with prior knowledge, or HTTP/1.1, told apart by the preface. */
function cleartextServers(
  options: ListenerOptions,
  guarded: RequestHandler,
  guard: ConnectionGuard,
): (socket: net.Socket) => void {
  const h1 = http.createServer({ keepAliveTimeout: options.connections.keepAliveTimeoutMs }, guarded);
  const h2 = http2.createServer({ settings: { maxConcurrentStreams: MAX_CONCURRENT_STREAMS } }, guarded);
  h2.on("session", guard.session);
  h1.on("clientError", answerMalformed);
  h1.on("connect", answerConnect);
  return (socket) => route(socket, h1, h2);
}

function readTlsFiles(tls: TlsFiles): { cert: Buffer; key: Buffer } {
  return { cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) };
}

// A request Node cannot even parse still gets the API's error shape and no-store (spec 2.1, 7).
const MALFORMED = { code: 3, message: "malformed HTTP request", details: [] };

function answerMalformed(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  writeError(socket, "400 Bad Request", MALFORMED);
}

function writeError(socket: Duplex, statusLine: string, status: object): void {
  const body = JSON.stringify(status);
  socket.end(
    `HTTP/1.1 ${statusLine}\r\ncontent-type: application/json\r\ncache-control: no-store\r\n` +
      `connection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

// Node closes a CONNECT request's socket unanswered unless someone listens (RFC 9110 9.3.6:
// this is no proxy). It still gets the API's error shape.
function answerConnect(_req: http.IncomingMessage, socket: Duplex): void {
  writeError(socket, "400 Bad Request", { code: 3, message: "the CONNECT method is not supported", details: [] });
}

function route(socket: net.Socket, h1: http.Server, h2: http2.Http2Server): void {
  // Read in paused mode ('readable' + read()), never 'data': flowing mode would hand the
  // unshifted bytes to nobody before the chosen server attaches its own reader.
  let seen = Buffer.alloc(0);
  const onReadable = () => {
    for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) {
      seen = Buffer.concat([seen, chunk]);
    }
    const n = Math.min(seen.length, H2_PREFACE.length);
    if (n === 0) return;
    const isH2 = seen.subarray(0, n).equals(H2_PREFACE.subarray(0, n));
    if (isH2 && seen.length < H2_PREFACE.length) return; // need more bytes to decide
    socket.off("readable", onReadable);
    socket.unshift(seen);
    // Node's HTTP/2 session takes bytes already buffered on the socket (nodejs/node#41185).
    (isH2 ? h2 : h1).emit("connection", socket);
  };
  socket.on("readable", onReadable);
  socket.on("error", () => socket.destroy());
}

function serve(server: net.Server, guard: ConnectionGuard): Listener {
  return {
    listen: (port, host) => listenOn(server, port, host),
    // The guard's count tells when the last connection has closed.
    close: async () => {
      await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), guard.drain()]);
    },
  };
}
