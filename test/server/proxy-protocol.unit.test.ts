import { describe, expect, it } from "vitest";
import { ProxyHeaderError, parseProxyHeader } from "../../src/server/proxy-protocol.js";
import { proxyHeaderV1, proxyHeaderV2 } from "../support/proxy-header.js";

const REQUEST = "GET / HTTP/1.1\r\n";

describe("parseProxyHeader", () => {
  it.each([
    ["version 1, IPv4", Buffer.from(proxyHeaderV1("203.0.113.7")), "203.0.113.7"],
    ["version 1, IPv6", Buffer.from(proxyHeaderV1("2001:db8::7")), "2001:db8::7"],
    ["version 2, IPv4", proxyHeaderV2("203.0.113.7"), "203.0.113.7"],
    ["version 2, IPv6", proxyHeaderV2("2001:db8:0:0:0:0:0:7"), "2001:db8::7"],
    ["version 2, an IPv4 client on a dual-stack proxy", proxyHeaderV2("::ffff:203.0.113.7"), "203.0.113.7"],
  ])("%s: the client's address and the header's length, the bytes after it left", (_, header, client) => {
    expect(parseProxyHeader(Buffer.concat([header, Buffer.from(REQUEST)]))).toEqual({ length: header.length, client });
  });

  it("names no client for the proxy's own connections (version 2 LOCAL, version 1 UNKNOWN)", () => {
    expect(parseProxyHeader(proxyHeaderV2("local"))).toEqual({ length: 16, client: undefined });
    expect(parseProxyHeader(Buffer.from(`PROXY UNKNOWN\r\n${REQUEST}`))).toEqual({ length: 15, client: undefined });
  });

  it("waits for more bytes while a header is not whole", () => {
    for (const header of [Buffer.from(proxyHeaderV1("203.0.113.7")), proxyHeaderV2("2001:db8::7")]) {
      for (let n = 0; n < header.length; n++) expect(parseProxyHeader(header.subarray(0, n))).toBeUndefined();
    }
  });

  it.each([
    ["an HTTP request", REQUEST],
    ["an unknown protocol", "PROXY UDP4 203.0.113.7 10.0.0.2 1 2\r\n"],
    ["an address of the other family", "PROXY TCP4 2001:db8::7 10.0.0.2 1 2\r\n"],
    ["a name where an address goes", "PROXY TCP4 player.example 10.0.0.2 1 2\r\n"],
    ["a field missing", "PROXY TCP4 203.0.113.7 10.0.0.2 1\r\n"],
    ["a version 1 header past 107 bytes", `PROXY TCP6 ${"0".repeat(120)}`],
  ])("refuses %s", (_, text) => {
    expect(() => parseProxyHeader(Buffer.from(text))).toThrow(ProxyHeaderError);
  });

  it("refuses a version 2 header of another version or command, or shorter than its addresses", () => {
    const header = proxyHeaderV2("203.0.113.7");
    const withByte = (at: number, value: number) => Buffer.from(header.map((byte, i) => (i === at ? value : byte)));
    expect(() => parseProxyHeader(withByte(12, 0x31))).toThrow(ProxyHeaderError);
    expect(() => parseProxyHeader(withByte(12, 0x22))).toThrow(ProxyHeaderError);
    expect(() => parseProxyHeader(withByte(15, 8))).toThrow(ProxyHeaderError);
  });
});
