import { Resolver } from "node:dns/promises";
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import type { WebhookConfig } from "../../config.js";
import { refusedAddress } from "../../domain/webhook-address.js";

// A webhook must not reach the service's own network (SSRF, docs/webhooks.md "Safety"). The URL's
// host is resolved and every address checked (src/domain/webhook-address.ts); the delivery then
// connects to the very address checked (never resolving again), so a DNS answer that changes
// between check and connect (rebinding) cannot redirect it.
//
// The host is asked of DNS through c-ares (dns.Resolver), never getaddrinfo (dns.lookup): a
// lookup holds one of libuv's four pool threads until the system resolver gives up, so a studio
// whose name server never answers could stall every other lookup, file read and key derivation
// of the process; a query holds no thread and ends at WEBHOOK_TIMEOUT_MS (docs/webhooks.md
// "Fairness"). So /etc/hosts is not read: a receiver is named by DNS or by its address.

/** Every address of every interface of this machine, read at each check: interfaces come and go. */
function hostAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((addresses) => (addresses ?? []).map((entry) => entry.address));
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
  config: Pick<WebhookConfig, "allowHttp" | "allowAddresses" | "timeoutMs" | "dnsServers">,
): Promise<WebhookTarget> {
  const url = parseWebhookUrl(text, config);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const addresses = isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : await askDns(host, config);
  if (addresses.length === 0) throw new WebhookUrlRefused(`has a host that does not resolve (${host})`);
  const rules = { allowed: config.allowAddresses, hostAddresses: hostAddresses() };
  for (const { address } of addresses) {
    const why = refusedAddress(address, rules);
    if (why !== undefined) throw new WebhookUrlRefused(`resolves to a refused address: ${why}`);
  }
  const first = addresses[0] as { address: string; family: number };
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** The host's IPv4 and IPv6 addresses from DNS, both asked at once, within about `timeoutMs`. */
async function askDns(
  host: string,
  { timeoutMs, dnsServers }: Pick<WebhookConfig, "timeoutMs" | "dnsServers">,
): Promise<{ address: string; family: number }[]> {
  // One try per server, each bounded, so the whole query ends within about timeoutMs.
  const resolver = new Resolver({ timeout: Math.max(1, Math.floor(timeoutMs / 2)), tries: 1 });
  if (dnsServers) resolver.setServers(dnsServers);
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
  return [
    ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
    ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : []),
  ];
}
