import type http from "node:http";
import http2 from "node:http2";
import type net from "node:net";
import type { Config } from "../config.js";
import { createDeadlineSweep } from "./deadline-sweep.js";

/** The listener's timeouts and connection caps, as configured (config.ts `connections`). */
export type ConnectionPolicy = Config["connections"];

type Req = http.IncomingMessage | http2.Http2ServerRequest;
type Res = http.ServerResponse | http2.Http2ServerResponse;

export type ConnectionGuard = ReturnType<typeof createConnectionGuard>;

interface Connection {
  /** The socket requests are read from: the TCP socket, or over TLS its TLS socket. */
  socket: net.Socket;
  session: http2.ServerHttp2Session | undefined;
  inFlight: number;
  /** While no request is in flight: when the connection closes, idle or without headers. */
  idleUntil: number;
}

const GOAWAY_GRACE_MS = 500;

/**
 * Keeps slow and idle clients from holding the listener: the front sockets are handed to Node's
 * HTTP servers by `emit('connection')`, so Node's own headers and request timeouts never start
 * there, and a socket that never sends a byte would wait forever. Each connection has one
 * deadline while no request is in flight (headers before the first request, idle after it), each
 * request one until its body has arrived (both looked at by one sweep a listener:
 * deadline-sweep.ts), and each response Node's own send timeout (sendTimeoutMs) while the client
 * takes none of it. The caps refuse a connection at accept.
 */
export function createConnectionGuard(policy: ConnectionPolicy) {
  const open = new Set<Connection>();
  const perAddress = new Map<string, number>();
  // The TLS socket and an HTTP/2 session's socket (a proxy) are other objects than the TCP
  // socket admitted: they are matched to its connection by the peer's address and port.
  const byPeer = new Map<string, Connection>();
  const bySocket = new WeakMap<net.Socket, Connection>();
  const bySession = new WeakMap<http2.Http2Session, Connection>();
  /** Requests whose bodies may still be coming, with when they must have arrived. */
  const receiving = new Map<Req, number>();
  let draining = false;
  let drained: (() => void) | undefined;

  const sweep = createDeadlineSweep(sweepInterval(policy), {
    check(now) {
      for (const [req, deadline] of receiving) {
        if (now < deadline) continue;
        receiving.delete(req);
        // A body that arrived but is not read (a GET's) never ends: the request is left alone.
        if (!bodyArrived(req)) abandon(req);
      }
      for (const conn of open) {
        if (now >= conn.idleUntil) closeIdle(conn);
        else if (conn.inFlight > 0 && !conn.session) pauseWhileBacked(conn.socket);
      }
    },
    postpone(ms) {
      for (const [req, deadline] of receiving) receiving.set(req, deadline + ms);
      for (const conn of open) conn.idleUntil += ms;
    },
  });

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
  const connectionOf = (req: Req) => {
    if (!("stream" in req)) return bySocket.get(req.socket);
    const { session } = req.stream;
    return session && bySession.get(session);
  };
  const responded = (conn: Connection) => {
    conn.inFlight -= 1;
    if (conn.inFlight > 0) return;
    // The send timeout ends with the last response: an idle connection is the idle deadline's
    // (over TLS, no keep-alive timer of Node's takes the socket's timeout over).
    if (!conn.session) conn.socket.setTimeout(0);
    // An HTTP/1.1 response may still be on its way out: end after it, never cut it.
    if (draining && !conn.session) endAfterWrites(conn.socket);
    else if (draining) closeIdle(conn);
    else conn.idleUntil = performance.now() + (conn.session ? policy.http2IdleTimeoutMs : policy.keepAliveTimeoutMs);
  };

  return {
    /** A new TCP connection from `address` (its client's): refused (destroyed) over a cap, else timed from now. */
    admit(socket: net.Socket, address: string): void {
      const fromAddress = perAddress.get(address) ?? 0;
      if (draining || open.size >= policy.maxConnections || fromAddress >= policy.maxConnectionsPerAddress) {
        socket.destroy();
        return;
      }
      const conn: Connection = {
        socket,
        session: undefined,
        inFlight: 0,
        idleUntil: performance.now() + policy.headersTimeoutMs,
      };
      open.add(conn);
      perAddress.set(address, fromAddress + 1);
      // Read now: a closed socket no longer knows its peer.
      const peer = peerKey(socket);
      byPeer.set(peer, conn);
      bySocket.set(socket, conn);
      sweep.start();
      socket.once("close", () => {
        open.delete(conn);
        if (byPeer.get(peer) === conn) byPeer.delete(peer);
        const left = (perAddress.get(address) ?? 1) - 1;
        if (left === 0) perAddress.delete(address);
        else perAddress.set(address, left);
        if (open.size > 0) return;
        sweep.stop();
        drained?.();
      });
    },
    /** Over TLS: the TLS socket that wraps an admitted TCP socket. */
    secured(tlsSocket: net.Socket): void {
      const conn = byPeer.get(peerKey(tlsSocket));
      if (!conn) return;
      bySocket.set(tlsSocket, conn);
      conn.socket = tlsSocket;
    },
    session(session: http2.ServerHttp2Session): void {
      const conn = byPeer.get(peerKey(session.socket));
      if (!conn) return;
      bySession.set(session, conn);
      conn.session = session;
      if (draining) session.close();
    },
    /** Every request, on either protocol, before the handler sees it. */
    request(req: Req, res: Res): void {
      const conn = connectionOf(req);
      if (!conn) return;
      conn.inFlight += 1;
      conn.idleUntil = Number.POSITIVE_INFINITY;
      if (draining && req.httpVersionMajor === 1) res.setHeader("connection", "close");
      receiving.set(req, performance.now() + policy.requestTimeoutMs);
      // Out of the map once its body is in, not only at the response: held here to the end, the
      // calls' objects were promoted out of V8's young generation under the purchase load
      // (docs/performance.md, "Counters and deadlines without per-call work").
      req.once("end", () => receiving.delete(req));
      if ("stream" in req) cancelAfterEarlyReply(req);
      // A client that stops reading its responses would hold them, and its stream or
      // connection, for good. Node's timeout of a response fires once its socket (HTTP/1.1) or
      // stream (HTTP/2) has moved nothing for sendTimeoutMs, the kernel taking part of a large
      // write counting as a move; a handler still working has nothing unsent and is left alone.
      res.setTimeout(policy.sendTimeoutMs, () => unsent(req, res) && abandon(req));
      res.once("close", () => {
        receiving.delete(req);
        responded(conn);
      });
    },
    /** Idle connections close now, busy ones after their last response; resolves once all closed. */
    drain(): Promise<void> {
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

// A reply sent before the request ended (a refusal of an oversized body): over HTTP/2 the
// client may be stuck on flow control, pushing a body nobody reads; CANCEL tells it to stop,
// after the reply it already has (RFC 9113 8.1). Node's compatibility layer sends the trailers
// in its own 'wantTrailers' listener, which runs before this one.
function cancelAfterEarlyReply(req: http2.Http2ServerRequest): void {
  req.stream.once("wantTrailers", () => {
    setImmediate(() => req.complete || req.stream.close(http2.constants.NGHTTP2_CANCEL));
  });
}

// A request whose body has not arrived in time, or whose response is not taken: its stream is
// reset (HTTP/2) or its connection closed (HTTP/1.1, where nothing else can follow it).
function abandon(req: Req): void {
  if ("stream" in req) req.stream.close(http2.constants.NGHTTP2_CANCEL);
  else req.socket.destroy();
}

// Response bytes the client has not taken. HTTP/1.1: any still buffered (the response's own and
// its socket's). HTTP/2: more than the stream's buffer holds, or all of them handed over
// (ended) but not yet out.
function unsent(req: Req, res: Res): boolean {
  if (!("stream" in req)) return res.writableLength > 0;
  const { stream } = req;
  return stream.writableNeedDrain || (stream.writableEnded && !stream.writableFinished);
}

// HTTP/1.1: while a response waits on a client that does not take it, nothing more is read from
// that client until it drains (as Node's HTTP server does when a pipelined request arrives then),
// so only bytes going out count against its send timeout: a client that keeps writing while it
// does not read is closed too.
function pauseWhileBacked(socket: net.Socket): void {
  if (!socket.writableNeedDrain || socket.isPaused()) return;
  socket.pause();
  socket.once("drain", () => socket.resume());
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

// HTTP/1.1: the parser has the whole message, read or not. HTTP/2: only a stream whose
// headers ended it is known complete before its body is read.
function bodyArrived(req: Req): boolean {
  return req.complete || ("stream" in req && req.stream.endAfterHeaders);
}

function peerKey(socket: net.Socket): string {
  return `${socket.remoteAddress}|${socket.remotePort}`;
}
