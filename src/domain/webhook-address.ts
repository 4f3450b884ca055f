import ipaddr from "ipaddr.js";
import { describeRange } from "./address-ranges.js";
import { type EmbeddedIPv4, embeddedIPv4 } from "./embedded-ipv4.js";

// Which addresses a webhook may be sent to (docs/webhooks.md "Safety"): global unicast only, as
// ipaddr.js classifies addresses, unless the operator allows some kinds (WEBHOOK_ALLOW_ADDRESSES).
// A webhook is a request the service makes to a URL a studio chose, so it must not reach the
// service's own network (SSRF).

/** The kinds of address WEBHOOK_ALLOW_ADDRESSES may allow. */
export type WebhookAddressKind = "loopback" | "private" | "link-local";

type IPv4Range = ReturnType<ipaddr.IPv4["range"]>;
type IPv6Range = ReturnType<ipaddr.IPv6["range"]>;

/** Each allowable kind as ipaddr.js's range names spell it. */
const allowable: Record<WebhookAddressKind, { ipv4: readonly IPv4Range[]; ipv6: readonly IPv6Range[] }> = {
  loopback: { ipv4: ["loopback"], ipv6: ["loopback"] },
  private: { ipv4: ["private", "carrierGradeNat"], ipv6: ["uniqueLocal"] },
  "link-local": { ipv4: ["linkLocal"], ipv6: ["linkLocal"] },
};

/**
 * IPv6's global unicast space (RFC 4291 section 2.4): ipaddr.js calls every address it has no
 * range for "unicast", the unassigned rest of the IPv6 space too.
 */
const globalUnicastIPv6 = ipaddr.parseCIDR("2000::/3");

export interface WebhookAddressRules {
  allowed: ReadonlySet<WebhookAddressKind>;
  /** This machine's own addresses: one reaches the machine as loopback does, so is judged as loopback. */
  hostAddresses: readonly string[];
}

type IP = ipaddr.IPv4 | ipaddr.IPv6;

/** The one text per address, whatever its form: zone dropped, IPv6 compressed. */
const canonical = (ip: IP) => ipaddr.fromByteArray(ip.toByteArray()).toString();

/** Why `address` may not be a webhook's destination under `rules`, or undefined when it may. */
export function refusedAddress(address: string, rules: WebhookAddressRules): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const host = new Set(
    rules.hostAddresses.filter((own) => ipaddr.isValid(own)).map((own) => canonical(ipaddr.parse(own))),
  );
  const why = refusal(ipaddr.parse(address), { allowed: rules.allowed, host });
  return why === undefined ? undefined : `${address} is ${why}`;
}

interface Rules {
  allowed: ReadonlySet<WebhookAddressKind>;
  host: ReadonlySet<string>;
}

/** What `ip` is when refused ("a loopback address (RFC 1122)"), or undefined when allowed. */
function refusal(ip: IP, rules: Rules): string | undefined {
  const range = ip.range();
  if (range !== "loopback" && rules.host.has(canonical(ip))) {
    return rules.allowed.has("loopback") ? undefined : "this machine's own address (judged as loopback)";
  }
  const embedded = ip instanceof ipaddr.IPv6 ? embeddedIPv4(ip, range) : undefined;
  if (embedded !== undefined) return carriedRefusal(embedded, rules);
  if (range === "unicast") {
    if (ip instanceof ipaddr.IPv4 || ip.match(globalUnicastIPv6)) return undefined;
    return "an address outside the global unicast space (2000::/3, RFC 4291)";
  }
  const kind = allowableKind(ip, range);
  return kind !== undefined && rules.allowed.has(kind) ? undefined : describeRange(ip, range);
}

/** A form carrying IPv4 addresses is refused when one of them is, and judged by them alone. */
function carriedRefusal(embedded: EmbeddedIPv4, rules: Rules): string | undefined {
  for (const { address, as } of embedded.carried) {
    const why = refusal(address, rules);
    if (why !== undefined) return `${embedded.form} carrying ${address}${as ? ` (${as})` : ""}, ${why}`;
  }
  return undefined;
}

/** The kind WEBHOOK_ALLOW_ADDRESSES may allow that ipaddr.js's `range` is, if any. */
function allowableKind(ip: IP, range: string): WebhookAddressKind | undefined {
  const kinds = Object.keys(allowable) as WebhookAddressKind[];
  return kinds.find((kind) => allowable[kind][ip.kind()].some((name) => name === range));
}
