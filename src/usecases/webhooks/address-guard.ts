import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import type { WebhookAddressKind, WebhookConfig } from "../../config.js";

// Issue 16: a webhook is a request the service makes to a URL a studio chose, so the URL must
// not reach the service's own network (SSRF). Its host is resolved and every address checked;
// the delivery then connects to the very address checked (never resolving again), so a DNS
// answer that changes between check and connect (rebinding) cannot redirect it.

const ranges: Record<WebhookAddressKind | "never", [string, number, "ipv4" | "ipv6"][]> = {
  loopback: [
    ["127.0.0.0", 8, "ipv4"],
    ["::1", 128, "ipv6"],
  ],
  private: [
    ["10.0.0.0", 8, "ipv4"],
    ["172.16.0.0", 12, "ipv4"],
    ["192.168.0.0", 16, "ipv4"],
    ["100.64.0.0", 10, "ipv4"],
    ["fc00::", 7, "ipv6"],
  ],
  "link-local": [
    ["169.254.0.0", 16, "ipv4"],
    ["fe80::", 10, "ipv6"],
  ],
  // Never a destination, whatever the operator allows: "this network", multicast, reserved.
  never: [
    ["0.0.0.0", 8, "ipv4"],
    ["224.0.0.0", 4, "ipv4"],
    ["240.0.0.0", 4, "ipv4"],
    ["::", 128, "ipv6"],
    ["ff00::", 8, "ipv6"],
  ],
};

function blockList(kind: keyof typeof ranges): BlockList {
  const list = new BlockList();
  for (const [network, prefix, family] of ranges[kind]) list.addSubnet(network, prefix, family);
  return list;
}

const lists = {
  loopback: blockList("loopback"),
  private: blockList("private"),
  "link-local": blockList("link-local"),
  never: blockList("never"),
};

/** An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is judged as the IPv4 address it carries. */
function unmap(address: string): { address: string; family: "ipv4" | "ipv6" } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return { address: mapped[1], family: "ipv4" };
  return { address, family: isIP(address) === 4 ? "ipv4" : "ipv6" };
}

/** Why `address` may not be a webhook's destination under `allowed`, or undefined when it may. */
export function refusedAddress(address: string, allowed: ReadonlySet<WebhookAddressKind>): string | undefined {
  const ip = unmap(address);
  if (lists.never.check(ip.address, ip.family)) return `${address} is not a unicast address`;
  for (const kind of ["loopback", "private", "link-local"] as const) {
    if (lists[kind].check(ip.address, ip.family) && !allowed.has(kind)) return `${address} is a ${kind} address`;
  }
  return undefined;
}

export interface WebhookTarget {
  url: URL;
  /** The checked address the request connects to. */
  address: string;
  family: 4 | 6;
}

export class WebhookUrlRefused extends Error {}

/** Reads an endpoint URL as the config allows it: https (or http if allowed), no credentials. */
export function parseWebhookUrl(text: string, config: Pick<WebhookConfig, "allowHttp">): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookUrlRefused("is not a URL");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && config.allowHttp)) {
    throw new WebhookUrlRefused(config.allowHttp ? "must be an http or https URL" : "must be an https URL");
  }
  if (url.username || url.password) throw new WebhookUrlRefused("must not carry credentials");
  if (url.hash) throw new WebhookUrlRefused("must not have a fragment");
  return url;
}

/**
 * Resolves the URL's host and checks every address it resolves to (one refused address refuses
 * the URL: which one a client would use is not ours to know); returns the first to connect to.
 */
export async function resolveWebhookTarget(
  text: string,
  config: Pick<WebhookConfig, "allowHttp" | "allowAddresses">,
): Promise<WebhookTarget> {
  const url = parseWebhookUrl(text, config);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: { address: string; family: number }[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new WebhookUrlRefused(`has a host that does not resolve (${host})`);
    }
  }
  if (addresses.length === 0) throw new WebhookUrlRefused(`has a host that does not resolve (${host})`);
  for (const { address } of addresses) {
    const why = refusedAddress(address, config.allowAddresses);
    if (why !== undefined) throw new WebhookUrlRefused(`resolves to a refused address: ${why}`);
  }
  const first = addresses[0] as { address: string; family: number };
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
