import { isIPv4 } from "node:net";
import ipaddr from "ipaddr.js";

// PROXY protocol headers as a proxy writes them (HAProxy's proxy-protocol.txt), for tests.

/** Version 1: `PROXY TCP4 <client> <proxy> <client port> <proxy port>\r\n`. */
export function proxyHeaderV1(client: string, proxy = isIPv4(client) ? "10.0.0.2" : "fd00::2"): string {
  return `PROXY ${isIPv4(client) ? "TCP4" : "TCP6"} ${client} ${proxy} 51234 8080\r\n`;
}

const V2_SIGNATURE = [0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a];
// A PP2_TYPE_NOOP record (type 0x04, three bytes of padding): a reader must skip it.
const NOOP_TLV = [0x04, 0x00, 0x03, 0x00, 0x00, 0x00];

/** Version 2 (binary) for a TCP client, with a record after the addresses; "local": the proxy's own connection. */
export function proxyHeaderV2(client: string | "local"): Buffer {
  if (client === "local") return Buffer.from([...V2_SIGNATURE, 0x20, 0x00, 0x00, 0x00]);
  const source = ipaddr.parse(client).toByteArray();
  const destination = source.map(() => 0);
  const ports = [0xc8, 0x22, 0x1f, 0x90];
  const body = [...source, ...destination, ...ports, ...NOOP_TLV];
  const family = source.length === 4 ? 0x11 : 0x21;
  return Buffer.from([...V2_SIGNATURE, 0x21, family, body.length >> 8, body.length & 0xff, ...body]);
}
