import type net from "node:net";
import ipaddr from "ipaddr.js";

/** A connection, or what a request shows of it (HTTP/2's `req.socket` is a stand-in object). */
export interface Peer {
  remoteAddress?: string | undefined;
  remotePort?: number | undefined;
  localAddress?: string | undefined;
  localPort?: number | undefined;
}

/**
 * Who a connection's client is (spec 8: the address a request actually comes from, never a
 * caller-written header). It is the socket's peer, unless the peer is a proxy named in
 * PROXY_PROTOCOL_FROM: such a connection opens with a PROXY protocol header (proxy-protocol.ts,
 * read by the listener), and the client is the address it names (docs/deploy.md "Replicas").
 */
export interface ClientAddresses {
  /** Whether the connection comes from a proxy whose header must be read. */
  fromProxy(socket: net.Socket): boolean;
  /** A proxy's header named this connection's client; kept while the connection is open. */
  declare(socket: net.Socket, client: string): void;
  /** The client address of the connection `peer` is, or carries a request of. */
  of(peer: Peer | undefined): string;
}

/** `proxies`: addresses and CIDR ranges (PROXY_PROTOCOL_FROM, checked by config.ts). */
export function createClientAddresses(proxies: readonly string[] = []): ClientAddresses {
  const ranges = proxies.map((proxy) => (proxy.includes("/") ? ipaddr.parseCIDR(proxy) : wholeRange(proxy)));
  // By the connection's four addresses and ports, which every view of it shows (a TLS socket,
  // HTTP/2's stand-ins) and no two open connections share.
  const declared = new Map<string, string>();
  return {
    fromProxy: (socket) => {
      if (ranges.length === 0 || !socket.remoteAddress) return false;
      const peer = ipaddr.process(socket.remoteAddress);
      return ranges.some(([range, bits]) => peer.kind() === range.kind() && peer.match(range, bits));
    },
    declare: (socket, client) => {
      const key = connectionKey(socket);
      declared.set(key, client);
      socket.once("close", () => declared.delete(key));
    },
    of: (peer) => {
      const address = normalisePeerAddress(peer?.remoteAddress);
      if (declared.size === 0 || !peer) return address;
      return declared.get(connectionKey(peer)) ?? address;
    },
  };
}

function wholeRange(address: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  const parsed = ipaddr.process(address);
  return [parsed, parsed.kind() === "ipv4" ? 32 : 128];
}

function connectionKey(peer: Peer): string {
  return `${peer.remoteAddress}|${peer.remotePort}|${peer.localAddress}|${peer.localPort}`;
}

/** `::ffff:127.0.0.1` (an IPv4 client on a dual-stack socket) is `127.0.0.1`. */
function normalisePeerAddress(address: string | undefined): string {
  if (!address) return "";
  return address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
}
