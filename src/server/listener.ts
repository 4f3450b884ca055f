import { readFileSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import net from "node:net";
import type { Duplex } from "node:stream";

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
  tls?: { certFile: string; keyFile: string };
}

// Every HTTP/2 connection with prior knowledge opens with this preface (RFC 9113 3.4); no
// HTTP/1.1 request line starts with it.
const H2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

/**
 * One port for every protocol: HTTP/1.1 (REST, Connect, gRPC-web) and HTTP/2 (gRPC and the
 * rest), cleartext by sniffing the preface, or TLS with ALPN when a certificate is given.
 */
export function createListener({ handler, tls }: ListenerOptions): Listener {
  const drain = createDrain(handler);
  if (tls) {
    const server = http2.createSecureServer(
      { cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile), allowHTTP1: true },
      drain.handler,
    );
    server.on("session", drain.trackSession);
    server.on("clientError", answerMalformed);
    return serve(server, drain);
  }
  const h1 = http.createServer(drain.handler);
  const h2 = http2.createServer(drain.handler);
  h2.on("session", drain.trackSession);
  h1.on("connection", drain.trackSocket);
  h1.on("clientError", answerMalformed);
  const front = net.createServer((socket) => route(socket, h1, h2));
  return serve(front, drain);
}

// A request Node cannot even parse still gets the API's error shape and no-store (spec 2.1, 7).
const MALFORMED = JSON.stringify({ code: 3, message: "malformed HTTP request", details: [] });

function answerMalformed(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  socket.end(
    "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncache-control: no-store\r\n" +
      `connection: close\r\ncontent-length: ${Buffer.byteLength(MALFORMED)}\r\n\r\n${MALFORMED}`,
  );
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

interface Drain {
  handler: RequestHandler;
  /** An HTTP/1.1 connection. */
  trackSocket(socket: net.Socket): void;
  trackSession(session: http2.ServerHttp2Session): void;
  /** Closes idle connections now and busy ones as their last response ends. */
  start(): void;
}

/**
 * Graceful shutdown: HTTP/1.1 connections are counted by requests in flight, so an idle
 * keep-alive connection is closed at once and a busy one right after its response (with
 * `Connection: close`); HTTP/2 sessions get a GOAWAY and finish their open streams.
 */
function createDrain(handler: RequestHandler): Drain {
  const inFlight = new Map<net.Socket, number>();
  const sessions = new Set<http2.ServerHttp2Session>();
  let closing = false;
  const trackSocket = (socket: net.Socket) => {
    inFlight.set(socket, 0);
    socket.once("close", () => inFlight.delete(socket));
  };
  return {
    trackSocket,
    handler(req, res) {
      const socket = req.socket as net.Socket;
      if (req.httpVersionMajor === 1) {
        // Over TLS an HTTP/1.1 connection is first seen here (ALPN chose it).
        if (!inFlight.has(socket)) trackSocket(socket);
        inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
        if (closing) res.setHeader("connection", "close");
        res.once("close", () => {
          const left = (inFlight.get(socket) ?? 1) - 1;
          inFlight.set(socket, left);
          if (closing && left === 0) socket.end();
        });
      }
      handler(req, res);
    },
    trackSession(session) {
      sessions.add(session);
      session.once("close", () => sessions.delete(session));
      if (closing) session.close();
    },
    start() {
      closing = true;
      for (const [socket, count] of inFlight) if (count === 0) socket.end();
      for (const session of sessions) session.close();
    },
  };
}

function serve(server: net.Server, drain: Drain): Listener {
  return {
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          resolve(server.address() as AddressInfo);
        });
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        drain.start();
      }),
  };
}
