import type http from "node:http";
import http2 from "node:http2";
import type net from "node:net";
import type { Config } from "../config.js";

/** The listener's timeouts and connection caps, as configured (config.ts `connections`). */
export type ConnectionPolicy = Config["connections"];

type Req = http.IncomingMessage | http2.Http2ServerRequest;
type Res = http.ServerResponse | http2.Http2ServerResponse;

export interface ConnectionGuard {
  /** A new TCP connection from `address` (its client's): refused (destroyed) over a cap, else timed from now. */
  admit(socket: net.Socket, address: string): void;
  /** Over TLS: the TLS socket that wraps an admitted TCP socket. */
  secured(tlsSocket: net.Socket): void;
  session(session: http2.ServerHttp2Session): void;
  /** Every request, on either protocol, before the handler sees it. */
  request(req: Req, res: Res): void;
  /**
   * Graceful shutdown: idle connections close now, busy ones after their last response.
   * Resolves once every admitted connection has closed.
   */
  drain(): Promise<void>;
}

interface Connection {
  /** The socket requests are read from: the TCP socket, or over TLS its TLS socket. */
  socket: net.Socket;
  address: string;
  session: http2.ServerHttp2Session | undefined;
  inFlight: number;
  /** While no request is in flight: when the connection closes, idle or without headers. */
  idleUntil: number;
  /** HTTP/1.1 while a request is in flight: what the socket had not sent at the last look... */
  unsent: number;
  /** ...and since when that amount has not moved. */
  unsentSince: number;
}

const kConnection = Symbol("connection");
const GOAWAY_GRACE_MS = 500;
type Tagged = net.Socket & { [kConnection]?: Connection };

/**
 * Keeps slow and idle clients from holding the listener: the front sockets are handed
 * to Node's HTTP servers by `emit('connection')`, so Node's own headers and request timeouts
 * never start there, and a socket that never sends a byte would wait forever. Each connection
 * has one deadline while no request is in flight (headers before the first request, idle after
 * it), each request one until its body has arrived, and each response one while the client
 * takes none of it (sendTimeoutMs). The caps refuse a connection at accept.
 *
 * The deadlines are numbers, looked at by one sweep a listener (as Node's own HTTP server checks
 * its connections): a timer made and cleared per request and per idle spell was a few
 * microseconds of every call. A deadline is kept to within a sweep's interval, a quarter of
 * the shortest timeout and at most a second; no deadline is ever kept early, and time in which
 * the service itself did not run is not counted.
 */
export function createConnectionGuard(policy: ConnectionPolicy): ConnectionGuard {
  const open = new Set<Connection>();
  const perAddress = new Map<string, number>();
  // Over TLS the TLS socket is a new object; it is matched to its TCP socket by the peer's port.
  const handshaking = new Map<string, Connection>();
  /** Requests whose bodies may still be coming, with when they must have arrived. */
  const receiving = new Map<Req, number>();
  let draining = false;
  let drained: (() => void) | undefined;

  const sweepEveryMs = sweepInterval(policy);
  let sweeping: NodeJS.Timeout | undefined;
  let lastSweep = 0;
  const sweep = () => {
    const now = performance.now();
    // A sweep this late means the service's own thread did not run (a long collection, a starved
    // core): nothing a client sent could be read, nor anything sent to it, and the sweep runs
    // before the bytes waiting in the kernel are. The deadlines move on by that time rather than
    // count it against the clients.
    const stalledMs = now - lastSweep - sweepEveryMs;
    if (stalledMs > sweepEveryMs) postpone(stalledMs);
    lastSweep = now;
    for (const [req, deadline] of receiving) {
      if (now < deadline) continue;
      receiving.delete(req);
      // A body that arrived but is not read (a GET's) never ends: the request is left alone.
      if (!bodyArrived(req)) abandon(req);
    }
    for (const conn of open) {
      if (now >= conn.idleUntil) closeIdle(conn);
      // HTTP/1.1 alone: an HTTP/2 stream has its own send timeout (request, below).
      else if (conn.inFlight > 0 && !conn.session) watchUnsent(conn, now);
    }
  };

  const postpone = (ms: number) => {
    for (const [req, deadline] of receiving) receiving.set(req, deadline + ms);
    for (const conn of open) {
      conn.idleUntil += ms;
      conn.unsentSince += ms;
    }
  };
  const arm = (conn: Connection, ms: number) => {
    conn.idleUntil = performance.now() + ms;
  };
  const closeIdle = (conn: Connection) => {
    conn.idleUntil = Number.POSITIVE_INFINITY;
    const { session } = conn;
    if (!session || session.destroyed) {
      conn.socket.destroy();
      return;
    }
    // A GOAWAY lets an HTTP/2 client open its next call elsewhere without an error. Node only
    // closes a closed session's socket once its last frames are out, which a client that does
    // not read would put off for good: it gets a moment, then the socket is destroyed.
    session.close();
    setTimeout(() => conn.socket.destroy(), GOAWAY_GRACE_MS).unref();
  };
  // HTTP/1.1 while a request is in flight: a client that stops reading holds its
  // responses, and the connection, for good otherwise. What the socket has not sent must go down
  // within sendTimeoutMs; a handler still working has nothing unsent and is left alone.
  // Only bytes going out count: a client that keeps writing while it does not read is closed
  // too (over TLS its bytes are still read, which would keep Node's socket timeout from firing).
  const watchUnsent = (conn: Connection, now: number) => {
    const unsent = unsentBytes(conn.socket);
    if (unsent === 0 || unsent !== conn.unsent) {
      conn.unsent = unsent;
      conn.unsentSince = now;
    } else if (now - conn.unsentSince >= policy.sendTimeoutMs) {
      conn.socket.destroy();
    }
  };
  const settle = (conn: Connection) => {
    if (conn.inFlight > 0) return;
    if (draining) closeIdle(conn);
    else arm(conn, conn.session ? policy.http2IdleTimeoutMs : policy.keepAliveTimeoutMs);
  };

  return {
    admit(socket, address) {
      const fromAddress = perAddress.get(address) ?? 0;
      if (draining || open.size >= policy.maxConnections || fromAddress >= policy.maxConnectionsPerAddress) {
        socket.destroy();
        return;
      }
      const conn: Connection = {
        socket,
        address,
        session: undefined,
        inFlight: 0,
        idleUntil: performance.now() + policy.headersTimeoutMs,
        unsent: 0,
        unsentSince: 0,
      };
      (socket as Tagged)[kConnection] = conn;
      open.add(conn);
      perAddress.set(address, fromAddress + 1);
      // Read now: a closed socket no longer knows its peer.
      const key = peerKey(socket);
      handshaking.set(key, conn);
      if (sweeping === undefined) {
        lastSweep = performance.now();
        sweeping = setInterval(sweep, sweepEveryMs);
        sweeping.unref();
      }
      socket.once("close", () => {
        open.delete(conn);
        if (open.size === 0) {
          clearInterval(sweeping);
          sweeping = undefined;
          drained?.();
        }
        handshaking.delete(key);
        const left = (perAddress.get(address) ?? 1) - 1;
        if (left === 0) perAddress.delete(address);
        else perAddress.set(address, left);
      });
    },
    secured(tlsSocket) {
      const key = peerKey(tlsSocket);
      const conn = handshaking.get(key);
      handshaking.delete(key);
      if (!conn) return;
      (tlsSocket as Tagged)[kConnection] = conn;
      conn.socket = tlsSocket;
    },
    session(session) {
      // session.socket is a proxy that forwards property reads to the connection's socket.
      const conn = (session.socket as Tagged)[kConnection];
      if (!conn) return;
      conn.session = session;
      if (draining) session.close();
    },
    request(req, res) {
      const conn = connectionOf(req);
      if (!conn) return;
      const now = performance.now();
      if (conn.inFlight === 0) {
        conn.idleUntil = Number.POSITIVE_INFINITY;
        conn.unsent = 0;
        conn.unsentSince = now;
      }
      conn.inFlight += 1;
      if (draining && req.httpVersionMajor === 1) res.setHeader("connection", "close");
      receiving.set(req, now + policy.requestTimeoutMs);
      // Out of the map once its body is in, not only at the response: held here to the end,
      // the calls' objects were promoted out of V8's young generation under the purchase load
      // (the hot campaign's RSS grew 4.5 MB a second instead of 0.5; docs/performance.md,
      // "Counters and deadlines without per-call work").
      req.once("end", () => receiving.delete(req));
      // A reply sent before the request ended (a refusal of an oversized body): over HTTP/2
      // the client may be stuck on flow control, pushing a body nobody reads; CANCEL tells it
      // to stop, after the reply it already has (RFC 9113 8.1). Node's compatibility layer
      // sends the trailers in its own 'wantTrailers' listener, which runs before this one.
      if ("stream" in req) {
        req.stream.once("wantTrailers", () => {
          setImmediate(() => req.complete || req.stream.close(http2.constants.NGHTTP2_CANCEL));
        });
      }
      // A client that stops reading its responses would hold a stream for good.
      // Node's stream timeout counts only this stream's frames going out as activity, so it
      // fires after sendTimeoutMs in which none of its response went out, however busy the
      // session; a handler still working has nothing to send and is left alone.
      if ("stream" in req) {
        res.setTimeout(policy.sendTimeoutMs, () => {
          if (stalled(req.stream)) abandon(req);
        });
      }
      res.once("close", () => {
        receiving.delete(req);
        conn.inFlight -= 1;
        // An HTTP/1.1 response may still be on its way out: end after it, never cut it.
        if (draining && !conn.session) {
          if (conn.inFlight === 0) endAfterWrites(conn.socket);
        } else {
          settle(conn);
        }
      });
    },
    drain() {
      draining = true;
      const closed = new Promise<void>((resolve) => {
        drained = resolve;
      });
      if (open.size === 0) drained?.();
      // Nothing was done for a request whose body is still coming (every handler reads the
      // whole body first): it is cut off rather than let a slow client hold the drain.
      for (const req of receiving.keys()) if (!bodyArrived(req)) abandon(req);
      for (const conn of open) {
        if (conn.inFlight === 0) closeIdle(conn);
        else conn.session?.close();
      }
      return closed;
    },
  };
}

/** A quarter of the shortest timeout, between 10 ms and a second. */
function sweepInterval(policy: ConnectionPolicy): number {
  const shortest = Math.min(
    policy.headersTimeoutMs,
    policy.requestTimeoutMs,
    policy.keepAliveTimeoutMs,
    policy.http2IdleTimeoutMs,
    policy.sendTimeoutMs,
  );
  return Math.min(1000, Math.max(10, Math.floor(shortest / 4)));
}

function connectionOf(req: Req): Connection | undefined {
  if ("stream" in req) return (req.stream.session?.socket as Tagged | undefined)?.[kConnection];
  return (req.socket as Tagged)[kConnection];
}

// A request whose body has not arrived in time, or whose response is not taken: its stream is
// reset (HTTP/2) or its connection closed (HTTP/1.1, where nothing else can follow it).
function abandon(req: Req): void {
  if ("stream" in req) req.stream.close(http2.constants.NGHTTP2_CANCEL);
  else req.socket.destroy();
}

/**
 * What the socket has not handed to the kernel yet: its buffer, and what is left of the write
 * in progress. The buffer counts a write whole until all of it is out, so a client reading one
 * large response slowly would look stuck by the buffer alone; libuv's `writeQueueSize` falls as
 * the kernel takes each part (Node's own socket timeout reads it for the same reason).
 */
function unsentBytes(socket: net.Socket): number {
  const handle = (socket as net.Socket & { _handle?: { writeQueueSize?: number } | null })._handle;
  return socket.writableLength + (handle?.writeQueueSize ?? 0);
}

function endAfterWrites(socket: net.Socket): void {
  if (socket.destroyed) return;
  if (socket.writableFinished) {
    socket.destroy();
    return;
  }
  // Destroyed once written, whether or not the peer ever closes its side.
  socket.once("finish", () => socket.destroy());
  socket.end();
}

// A stream with response bytes the client has not taken: more than its buffer holds, or all
// of them handed over (ended) but not yet out.
function stalled(stream: http2.ServerHttp2Stream): boolean {
  return stream.writableNeedDrain || (stream.writableEnded && !stream.writableFinished);
}

// HTTP/1.1: the parser has the whole message, read or not. HTTP/2: only a stream whose
// headers ended it is known complete before its body is read.
function bodyArrived(req: Req): boolean {
  return req.complete || ("stream" in req && req.stream.endAfterHeaders);
}

function peerKey(socket: net.Socket): string {
  return `${socket.remoteAddress}|${socket.remotePort}`;
}
