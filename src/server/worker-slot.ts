import { addressGroup } from "./address-group.js";

/**
 * Which of `workers` serves a client address (cluster-primary.ts): always the same one for an address
 * and for every address of its group (an IPv6 /64), so the counters the service keeps per address
 * and per group (the rate limits of spec 8, the failed-ticket limit, the connection cap) are
 * whole in that one worker's memory and need no shared store. FNV-1a over the group's text:
 * addresses are spread evenly, and the same on every start.
 */
export function workerSlotOf(address: string, workers: number): number {
  const group = addressGroup(address);
  let hash = 0x811c9dc5;
  for (let i = 0; i < group.length; i++) {
    hash ^= group.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % workers;
}
