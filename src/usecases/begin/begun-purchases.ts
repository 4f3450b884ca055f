import { LRUCache } from "lru-cache";
import type { PurchaseRecord } from "../../store/purchases.js";

/**
 * The game's purchases this replica began and opened at the platform, as settling needs them, so
 * the complete that follows on the same replica (the game's connection usually stays on it)
 * settles without reading the purchase first (docs/performance.md "A complete after its begin").
 * Settling never trusts the state it starts from: the platform is asked first and every write is
 * conditional on the purchase's state in the database, so a purchase another replica or the
 * sweeper moved on meanwhile is answered as it is. Each record is taken once: a retried complete
 * reads the purchase from the database, and one whose publisher key the platform rejected (the
 * studio replaced it since the begin) reads it and settles again at once (complete-purchase.ts).
 * Bounded in number and age; one forgotten only costs its complete a read.
 */
export interface BegunPurchases {
  remember(purchase: PurchaseRecord): void;
  take(purchaseId: string): PurchaseRecord | undefined;
}

export function createBegunPurchases(options: {
  max: number;
  ttlMs: number;
  /** The clock ages are told by (milliseconds); performance's by default. */
  now?: () => number;
}): BegunPurchases {
  const { max, ttlMs, now } = options;
  const begun = new LRUCache<string, PurchaseRecord>({
    max,
    ttl: ttlMs,
    ttlResolution: 0,
    ...(now && { perf: { now } }),
  });
  return {
    remember: (purchase) => void begun.set(purchase.id, purchase),
    take(purchaseId) {
      const purchase = begun.get(purchaseId);
      if (purchase) begun.delete(purchaseId);
      return purchase;
    },
  };
}
