import { describe, expect, it } from "vitest";
import { webIpv4Address } from "../../src/domain/web-address.js";

describe("the address a web order is opened for", () => {
  it("is the client's IPv4 address, unwrapped from an IPv4-mapped IPv6 one", () => {
    expect(webIpv4Address("203.0.113.7")).toBe("203.0.113.7");
    expect(webIpv4Address("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(webIpv4Address("::FFFF:127.0.0.1")).toBe("127.0.0.1");
  });

  it("is none for an IPv6 client or anything that is not a dotted quad", () => {
    for (const address of ["2001:db8::1", "::1", "", "256.0.0.1", "1.2.3", "01.2.3.4", "1.2.3.4.5", "a.b.c.d"]) {
      expect(webIpv4Address(address), address).toBeUndefined();
    }
  });
});
