import type net from "node:net";
import { isIPv4, isIPv6 } from "node:net";
import ipaddr from "ipaddr.js";

// The PROXY protocol, versions 1 (text) and 2 (binary), as HAProxy's proxy-protocol.txt defines
// it: a proxy that passes a TCP connection on opens it with one header naming the client's
// address. Read only from the proxies PROXY_PROTOCOL_FROM names (client-address.ts).
const V1_PREFIX = Buffer.from("PROXY ");
// The longest version 1 header, "PROXY UNKNOWN" with two IPv6 addresses, CRLF included.
const V1_MAX_BYTES = 107;
const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
const V2_FIXED_BYTES = 16;
// Version 2 address blocks: source and destination addresses, then their ports.
const V2_INET_BYTES = 12;
const V2_INET6_BYTES = 36;

export interface ProxyHeader {
  /** The header's bytes; what follows is the client's own. */
  length: number;
  /** The client's address; undefined when the proxy speaks for itself (LOCAL, UNKNOWN: its health checks). */
  client: string | undefined;
}

export class ProxyHeaderError extends Error {}

/** The header `bytes` start with; undefined while more bytes are needed. Throws if there is none. */
export function parseProxyHeader(bytes: Buffer): ProxyHeader | undefined {
  if (agrees(bytes, V2_SIGNATURE)) return parseV2(bytes);
  if (agrees(bytes, V1_PREFIX)) return parseV1(bytes);
  throw new ProxyHeaderError("the connection does not open with a PROXY protocol header");
}

/** The bytes so far agree with `signature`, as far as both go. */
function agrees(bytes: Buffer, signature: Buffer): boolean {
  const n = Math.min(bytes.length, signature.length);
  return bytes.subarray(0, n).equals(signature.subarray(0, n));
}

function parseV2(bytes: Buffer): ProxyHeader | undefined {
  if (bytes.length < V2_FIXED_BYTES) return undefined;
  const version = (bytes[12] as number) >> 4;
  const command = (bytes[12] as number) & 0x0f;
  const family = (bytes[13] as number) >> 4;
  const length = V2_FIXED_BYTES + bytes.readUInt16BE(14);
  if (version !== 2 || command > 1) throw new ProxyHeaderError("unsupported PROXY protocol version or command");
  if (bytes.length < length) return undefined;
  // LOCAL (0): the proxy's own connection. UNSPEC and UNIX families carry no client address.
  if (command === 0 || (family !== 1 && family !== 2)) return { length, client: undefined };
  const addressBytes = family === 1 ? 4 : 16;
  if (length < V2_FIXED_BYTES + (family === 1 ? V2_INET_BYTES : V2_INET6_BYTES)) {
    throw new ProxyHeaderError("PROXY protocol header shorter than its addresses");
  }
  // Type-length-value records after the addresses, if any, are skipped with the header.
  const source = [...bytes.subarray(V2_FIXED_BYTES, V2_FIXED_BYTES + addressBytes)];
  return { length, client: ipaddr.process(ipaddr.fromByteArray(source).toString()).toString() };
}

function parseV1(bytes: Buffer): ProxyHeader | undefined {
  const end = bytes.subarray(0, V1_MAX_BYTES).indexOf("\r\n");
  if (end < 0) {
    if (bytes.length >= V1_MAX_BYTES) throw new ProxyHeaderError("PROXY protocol header longer than 107 bytes");
    return undefined;
  }
  const fields = bytes.toString("latin1", 0, end).split(" ");
  const length = end + 2;
  if (fields[1] === "UNKNOWN") return { length, client: undefined };
  const [, protocol, source = "", destination = ""] = fields;
  const isFamily = protocol === "TCP4" ? isIPv4 : protocol === "TCP6" ? isIPv6 : undefined;
  if (fields.length !== 6 || !isFamily?.(source) || !isFamily(destination)) {
    throw new ProxyHeaderError("malformed PROXY protocol header");
  }
  return { length, client: ipaddr.process(source).toString() };
}

/**
 * Reads the header a connection from a proxy opens with, leaving the bytes after it unread on
 * the socket. Resolves to the client's address (undefined: the proxy's own connection); rejects
 * on anything else, or when none came within `timeoutMs`.
 */
export function readProxyHeader(socket: net.Socket, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    let seen = Buffer.alloc(0);
    const done = (error: Error | undefined, client?: string) => {
      clearTimeout(timer);
      socket.off("readable", onReadable);
      socket.off("close", onClose);
      socket.off("error", done);
      if (error) reject(error);
      else resolve(client);
    };
    const timer = setTimeout(() => done(new ProxyHeaderError("no PROXY protocol header in time")), timeoutMs);
    const onClose = () => done(new ProxyHeaderError("closed before its PROXY protocol header"));
    // Paused mode, as the listener's own preface sniffing (listener.ts): nothing is lost.
    const onReadable = () => {
      for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) {
        seen = Buffer.concat([seen, chunk]);
      }
      let header: ProxyHeader | undefined;
      try {
        header = parseProxyHeader(seen);
      } catch (error) {
        done(error as Error);
        return;
      }
      if (!header) return;
      if (seen.length > header.length) socket.unshift(seen.subarray(header.length));
      done(undefined, header.client);
    };
    socket.on("readable", onReadable);
    socket.on("close", onClose);
    socket.on("error", done);
  });
}
