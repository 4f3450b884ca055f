// A public read served from the cache must never contradict a write the service made.
// Whatever changes a campaign's public funding says so here, and the public read cache forgets
// that campaign's answer: at once on the replica that wrote (before it answers), and on the
// others when PostgreSQL delivers the write's pg_notify (src/store/funding-channel.ts).

export type FundingChangeListener = (campaignKey: string | undefined) => void;

export interface FundingChanges {
  /** `campaignKey`'s public funding changed (its transaction committed). */
  changed(campaignKey: string): void;
  /** Any campaign's may have changed (the notifications of other replicas were missed). */
  changedAll(): void;
  /**
   * A write of this replica may have changed any campaign's public funding (a studio's or the
   * operator's change, which names no campaign key): forgotten here at once, and the other
   * replicas are told. Never fails: a lost announcement leaves them the cache's own expiry.
   */
  announceAll(): Promise<void>;
  subscribe(listener: FundingChangeListener): void;
}

export interface FundingChangesOptions {
  /** Tells the other replicas (pg_notify); absent with one replica (PGlite). */
  announceToReplicas?: () => Promise<void>;
  onAnnounceFailed?: (error: unknown) => void;
}

export function createFundingChanges(options: FundingChangesOptions = {}): FundingChanges {
  const listeners: FundingChangeListener[] = [];
  const changedAll = () => {
    for (const listener of listeners) listener(undefined);
  };
  return {
    changed: (campaignKey) => {
      for (const listener of listeners) listener(campaignKey);
    },
    changedAll,
    announceAll: async () => {
      changedAll();
      try {
        await options.announceToReplicas?.();
      } catch (error) {
        options.onAnnounceFailed?.(error);
      }
    },
    subscribe: (listener) => void listeners.push(listener),
  };
}
