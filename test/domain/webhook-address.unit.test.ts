import { describe, expect, it } from "vitest";
import { refusedAddress, type WebhookAddressKind } from "../../src/domain/webhook-address.js";

// docs/webhooks.md "Safety": global unicast only, whatever the form; loopback, private and
// link-local only where allowed; this machine's own addresses as loopback.

const none: WebhookAddressKind[] = [];
const every: WebhookAddressKind[] = ["loopback", "private", "link-local"];
/** This test's "machine": a global address of its own, and a private one. */
const hostAddresses = ["93.184.216.34", "fd00::2", "127.0.0.1", "::1"];

const judge = (address: string, allowed: WebhookAddressKind[]) =>
  refusedAddress(address, { allowed: new Set(allowed), hostAddresses });

/** Refused with no kind allowed, and what the refusal says. */
const refused: [string, string | RegExp][] = [
  // The security review's addresses.
  [
    "::7f00:1",
    "::7f00:1 is an IPv4-compatible address (deprecated, RFC 4291) carrying 127.0.0.1, a loopback address (RFC 1122)",
  ],
  [
    "64:ff9b::7f00:1",
    "64:ff9b::7f00:1 is a NAT64 address (RFC 6052) carrying 127.0.0.1, a loopback address (RFC 1122)",
  ],
  ["2002:7f00:1::1", "2002:7f00:1::1 is a 6to4 address (RFC 3056) carrying 127.0.0.1, a loopback address (RFC 1122)"],
  ["192.0.0.1", "192.0.0.1 is a reserved address (IETF protocol assignments, RFC 6890)"],
  ["198.18.0.1", "198.18.0.1 is a reserved address (benchmarking, RFC 2544)"],
  ["192.0.2.1", "192.0.2.1 is a reserved address (documentation, RFC 5737)"],
  ["93.184.216.34", "93.184.216.34 is this machine's own address (judged as loopback)"],
  // Loopback, private, link-local, plain.
  ["127.0.0.1", /loopback address/],
  ["::1", "::1 is the loopback address (RFC 4291)"],
  ["10.1.2.3", "10.1.2.3 is a private address (RFC 1918)"],
  ["172.31.255.255", /private address \(RFC 1918\)/],
  ["192.168.0.1", /private address \(RFC 1918\)/],
  ["100.64.0.1", "100.64.0.1 is a private address (shared address space, RFC 6598)"],
  ["fd12::1", "fd12::1 is a private address (unique local, RFC 4193)"],
  ["169.254.169.254", "169.254.169.254 is a link-local address (RFC 3927)"],
  ["fe80::1", "fe80::1 is a link-local address (RFC 4291)"],
  // The same, carried by every IPv6 form that carries an IPv4 address.
  ["::ffff:10.0.0.1", /IPv4-mapped address \(RFC 4291\) carrying 10\.0\.0\.1, a private/],
  ["::ffff:127.0.0.1", /IPv4-mapped .* carrying 127\.0\.0\.1, a loopback/],
  ["::ffff:0:a9fe:a9fe", /IPv4-translated address \(RFC 6145\) carrying 169\.254\.169\.254, a link-local/],
  ["::a00:1", /IPv4-compatible .* carrying 10\.0\.0\.1, a private/],
  ["64:ff9b::a9fe:a9fe", /NAT64 .* carrying 169\.254\.169\.254, a link-local/],
  [
    "64:ff9b:1::a00:1",
    /local-use NAT64 address \(RFC 8215\) carrying 10\.0\.0\.1 \(if its prefix is \/96\), a private/,
  ],
  ["64:ff9b:1:0:7f:0:100:0", /local-use NAT64 .* carrying 127\.0\.0\.1 \(if its prefix is \/64\), a loopback/],
  ["2002:c0a8:101::1", /6to4 .* carrying 192\.168\.1\.1, a private/],
  ["2002:a9fe:a9fe::1", /6to4 .* carrying 169\.254\.169\.254, a link-local/],
  ["2001:0:7f00:1:0:0:f7f7:f7f7", /Teredo address \(RFC 4380\) carrying 127\.0\.0\.1 \(server\), a loopback/],
  ["2001:0:4136:e378:8000:63bf:f5ff:fffe", /Teredo .* carrying 10\.0\.0\.1 \(client\), a private/],
  ["::ffff:93.184.216.34", /IPv4-mapped .* carrying 93\.184\.216\.34, this machine's own address/],
  ["2002:5db8:d822::1", /6to4 .* carrying 93\.184\.216\.34, this machine's own address/],
  ["::ffff:192.0.2.1", /carrying 192\.0\.2\.1, a reserved address \(documentation, RFC 5737\)/],
  // Never a destination, whatever is allowed.
  ["0.0.0.0", /unspecified address \("this network", RFC 1122\)/],
  ["::", /^:: is the unspecified address \(RFC 4291\)$/],
  ["224.0.0.1", /multicast/],
  ["ff02::1", /multicast/],
  ["255.255.255.255", /limited broadcast/],
  ["240.0.0.1", /reserved address \(future use, RFC 1112\)/],
  ["192.88.99.1", /reserved address \(6to4 relay anycast, deprecated, RFC 7526\)/],
  ["198.51.100.7", /documentation, RFC 5737/],
  ["203.0.113.7", /documentation, RFC 5737/],
  ["192.175.48.1", /AS112/],
  ["192.52.193.1", /AMT/],
  ["2001:db8::1", "2001:db8::1 is a reserved address (documentation, RFC 3849)"],
  ["3fff::1", /documentation, RFC 9637/],
  ["2001:1::1", /IETF protocol assignments, RFC 2928/],
  ["2001:2::1", /benchmarking address \(RFC 5180\)/],
  ["fec0::1", /site-local address \(deprecated, RFC 3879\)/],
  ["100::1", /discard-only address \(RFC 6666\)/],
  ["5f00::1", /SRv6/],
  ["4000::1", "4000::1 is an address outside the global unicast space (2000::/3, RFC 4291)"],
  ["::1:2:3:4", /outside the global unicast space/],
  ["not-an-address", "not-an-address is not an IP address"],
];

/** Global unicast: accepted with no kind allowed. */
const accepted = [
  "8.8.8.8",
  "172.32.0.1",
  "2606:4700:4700::1111",
  "::ffff:8.8.8.8",
  "64:ff9b::808:808",
  "2002:808:808::1",
  "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
];

/** [address, allowed kinds, refusal or undefined for accepted]. */
const allowances: [string, WebhookAddressKind[], RegExp | undefined][] = [
  ["127.0.0.1", ["loopback"], undefined],
  ["::1", ["loopback"], undefined],
  ["::ffff:127.0.0.1", ["loopback"], undefined],
  ["10.0.0.1", ["loopback"], /private/],
  ["10.0.0.1", ["private"], undefined],
  ["100.64.0.1", ["private"], undefined],
  ["fd00::1", ["private"], undefined],
  ["64:ff9b::a00:1", ["private"], undefined],
  ["169.254.169.254", ["private"], /link-local/],
  ["169.254.169.254", ["link-local"], undefined],
  ["fe80::1", ["link-local"], undefined],
  ["2002:a9fe:a9fe::1", ["link-local"], undefined],
  // This machine's own addresses count as loopback, whatever kind they are otherwise.
  ["93.184.216.34", ["loopback"], undefined],
  ["fd00::2", ["private", "link-local"], /this machine's own address/],
  ["fd00::2", ["loopback"], undefined],
  ["fd00::3", ["private"], undefined],
  ...["0.0.0.0", "::", "192.0.2.1", "198.18.0.1", "224.0.0.1", "fec0::1", "4000::1", "64:ff9b::c000:201"].map(
    (address): [string, WebhookAddressKind[], RegExp] => [address, every, /./],
  ),
  // A local-use NAT64 address is refused when any place it may carry an IPv4 address is.
  ["64:ff9b:1::808:808", every, /carrying 0\.0\.0\.8 \(if its prefix is \/64\), an unspecified/],
];

describe("webhook destination addresses", () => {
  it.each(refused)("refuses %s with no kind allowed, saying what it is", (address, why) => {
    const refusal = judge(address, none);
    if (typeof why === "string") expect(refusal).toBe(why);
    else expect(refusal).toMatch(why);
  });

  it.each(accepted)("accepts the global unicast address %s", (address) => {
    expect(judge(address, none)).toBeUndefined();
  });

  it.each(allowances)("judges %s allowing %j", (address, allowed, why) => {
    if (why === undefined) expect(judge(address, allowed)).toBeUndefined();
    else expect(judge(address, allowed)).toMatch(why);
  });
});
