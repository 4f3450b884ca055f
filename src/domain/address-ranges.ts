import ipaddr from "ipaddr.js";

// What each of ipaddr.js's special-purpose ranges is, in words, for the address guard's refusals
// (docs/webhooks.md "Safety"). ipaddr.js decides which range an address is in; these tables only
// name the ranges (with the RFC that sets each apart, as IANA's special-purpose registries do).

const ipv4Ranges = new Map(
  Object.entries({
    unspecified: 'an unspecified address ("this network", RFC 1122)',
    broadcast: "the limited broadcast address (RFC 919)",
    multicast: "a multicast address (RFC 5771)",
    linkLocal: "a link-local address (RFC 3927)",
    loopback: "a loopback address (RFC 1122)",
    carrierGradeNat: "a private address (shared address space, RFC 6598)",
    private: "a private address (RFC 1918)",
    as112: "an AS112 DNS sink address (RFC 7534, RFC 7535)",
    amt: "an AMT relay anycast address (RFC 7450)",
  }),
);

const ipv6Ranges = new Map(
  Object.entries({
    unspecified: "the unspecified address (RFC 4291)",
    linkLocal: "a link-local address (RFC 4291)",
    multicast: "a multicast address (RFC 4291)",
    loopback: "the loopback address (RFC 4291)",
    uniqueLocal: "a private address (unique local, RFC 4193)",
    deprecatedSiteLocal: "a site-local address (deprecated, RFC 3879)",
    discard: "a discard-only address (RFC 6666)",
    benchmarking: "a benchmarking address (RFC 5180)",
    amt: "an AMT address (RFC 7450)",
    as112v6: "an AS112 DNS sink address (RFC 7534, RFC 7535)",
    deprecatedOrchid: "an ORCHID address (deprecated, RFC 4843)",
    orchid2: "an ORCHIDv2 address (RFC 7343)",
    droneRemoteIdProtocolEntityTags: "a drone remote ID entity tag (RFC 9374)",
    segmentRouting: "an SRv6 segment identifier (RFC 9602)",
  }),
);

const cidr = (text: string) => ipaddr.parseCIDR(text);

/** The parts of ipaddr.js's "reserved" range, each named by what it is reserved for. */
const reservedParts: Parameters<typeof ipaddr.subnetMatch>[1] = {
  "IETF protocol assignments, RFC 6890": cidr("192.0.0.0/24"),
  "documentation, RFC 5737": [cidr("192.0.2.0/24"), cidr("198.51.100.0/24"), cidr("203.0.113.0/24")],
  "6to4 relay anycast, deprecated, RFC 7526": cidr("192.88.99.0/24"),
  "benchmarking, RFC 2544": cidr("198.18.0.0/15"),
  "future use, RFC 1112": cidr("240.0.0.0/4"),
  "IETF protocol assignments, RFC 2928": cidr("2001::/23"),
  "documentation, RFC 3849": cidr("2001:db8::/32"),
  "documentation, RFC 9637": cidr("3fff::/20"),
};

/** What `ip`, in ipaddr.js's special-purpose range `range`, is: "a reserved address (…)". */
export function describeRange(ip: ipaddr.IPv4 | ipaddr.IPv6, range: string): string {
  if (range === "reserved") return `a reserved address (${ipaddr.subnetMatch(ip, reservedParts, "special purpose")})`;
  const known = (ip.kind() === "ipv4" ? ipv4Ranges : ipv6Ranges).get(range);
  return known ?? `a special-purpose address (ipaddr.js range "${range}")`;
}
