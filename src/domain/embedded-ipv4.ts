import ipaddr from "ipaddr.js";

// The IPv6 forms that carry an IPv4 address, and where each carries it, so that the address
// guard judges the IPv4 address a connection to them may end at (docs/webhooks.md "Safety").

/** An IPv6 address that carries IPv4 addresses. */
export interface EmbeddedIPv4 {
  /** What the IPv6 address is, e.g. "a 6to4 address (RFC 3056)". */
  form: string;
  /** Every IPv4 address it may carry; `as` says which one when it may carry several. */
  carried: { address: ipaddr.IPv4; as?: string }[];
}

/** Byte positions of the IPv4 address after an RFC 6052 prefix of each length (section 2.2). */
const rfc6052Layout = {
  48: [6, 7, 9, 10],
  56: [7, 9, 10, 11],
  64: [9, 10, 11, 12],
  96: [12, 13, 14, 15],
} as const;

const lastFour = rfc6052Layout[96];

function octets(bytes: readonly number[], positions: readonly number[], mask = 0): ipaddr.IPv4 {
  return new ipaddr.IPv4(positions.map((at) => (bytes[at] ?? 0) ^ mask));
}

const inLastFour = (bytes: readonly number[]) => [{ address: octets(bytes, lastFour) }];

/**
 * Forms ipaddr.js's range() does not tell apart: IPv4-compatible addresses are "unicast" to it,
 * and its "rfc6052" range holds both NAT64 prefixes.
 */
const ownForms: Parameters<typeof ipaddr.subnetMatch>[1] = {
  ipv4Compatible: ipaddr.parseCIDR("::/96"),
  nat64: ipaddr.parseCIDR("64:ff9b::/96"),
  nat64LocalUse: ipaddr.parseCIDR("64:ff9b:1::/48"),
};

type Form = { form: string; carried: (bytes: readonly number[]) => EmbeddedIPv4["carried"] };

const forms = new Map<string, Form>(
  Object.entries<Form>({
    ipv4Mapped: { form: "an IPv4-mapped address (RFC 4291)", carried: inLastFour },
    rfc6145: { form: "an IPv4-translated address (RFC 6145)", carried: inLastFour },
    ipv4Compatible: { form: "an IPv4-compatible address (deprecated, RFC 4291)", carried: inLastFour },
    nat64: { form: "a NAT64 address (RFC 6052)", carried: inLastFour },
    // The network chooses its prefix inside 64:ff9b:1::/48 (any RFC 6052 length from /48), which
    // is not ours to know: every place it may put the IPv4 address is judged.
    nat64LocalUse: {
      form: "a local-use NAT64 address (RFC 8215)",
      carried: (bytes) =>
        ([96, 64, 56, 48] as const).map((length) => ({
          address: octets(bytes, rfc6052Layout[length]),
          as: `if its prefix is /${length}`,
        })),
    },
    "6to4": { form: "a 6to4 address (RFC 3056)", carried: (bytes) => [{ address: octets(bytes, [2, 3, 4, 5]) }] },
    // RFC 4380 section 4: the server's address in clear, the client's with every bit inverted.
    teredo: {
      form: "a Teredo address (RFC 4380)",
      carried: (bytes) => [
        { address: octets(bytes, [4, 5, 6, 7]), as: "server" },
        { address: octets(bytes, lastFour, 0xff), as: "client" },
      ],
    },
  }),
);

/** The IPv4 addresses `ip` (of ipaddr.js range `range`) carries, or undefined for other forms. */
export function embeddedIPv4(ip: ipaddr.IPv6, range: string): EmbeddedIPv4 | undefined {
  const name = range === "unicast" || range === "rfc6052" ? ipaddr.subnetMatch(ip, ownForms, range) : range;
  const found = forms.get(name);
  if (found === undefined) return undefined;
  return { form: found.form, carried: found.carried(ip.toByteArray()) };
}
