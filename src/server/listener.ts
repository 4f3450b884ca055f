import { readFileSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import net from "node:net";

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
  const sessions = new Set<http2.ServerHttp2Session>();
  const track = (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  };

  if (tls) {
    const server = http2.createSecureServer(
      { cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile), allowHTTP1: true },
      handler,
    );
    server.on("session", track);
    return wrap(server, () => server, sessions);
  }

  const h1 = http.createServer(handler);
  const h2 = http2.createServer(handler);
  h2.on("session", track);
  const front = net.createServer((socket) => route(socket, h1, h2));
  return wrap(
    front,
    () => h1,
    sessions,
    () => h2.close(),
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

const DRAIN_POLL_MS = 50;

function wrap(
  server: net.Server,
  http1: () => http.Server | http2.Http2SecureServer,
  sessions: Set<http2.ServerHttp2Session>,
  closeExtra: () => void = () => {},
): Listener {
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
        const h1 = http1();
        // A keep-alive connection becomes idle once its in-flight request is answered; close
        // it then, so close() waits for requests, not for clients to hang up.
        const drain = setInterval(() => {
          if ("closeIdleConnections" in h1) h1.closeIdleConnections();
        }, DRAIN_POLL_MS);
        server.close(() => {
          clearInterval(drain);
          resolve();
        });
        if ("closeIdleConnections" in h1) h1.closeIdleConnections();
        for (const session of sessions) session.close();
        closeExtra();
      }),
  };
}
