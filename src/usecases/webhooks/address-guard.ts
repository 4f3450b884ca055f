import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import type { WebhookConfig } from "../../config.js";
import { refusedAddress } from "../../domain/webhook-address.js";

// A webhook must not reach the service's own network (SSRF, docs/webhooks.md "Safety"). The URL's
// host is resolved and every address checked (src/domain/webhook-address.ts); the delivery then
// connects to the very address checked (never resolving again), so a DNS answer that changes
// between check and connect (rebinding) cannot redirect it.

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
  const rules = { allowed: config.allowAddresses, hostAddresses: hostAddresses() };
  for (const { address } of addresses) {
    const why = refusedAddress(address, rules);
    if (why !== undefined) throw new WebhookUrlRefused(`resolves to a refused address: ${why}`);
  }
  const first = addresses[0] as { address: string; family: number };
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
