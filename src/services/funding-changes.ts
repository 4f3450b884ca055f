// Issue 14: a public read served from the cache must never contradict a write the service made.
// Whatever changes a campaign's public funding says so here, and the public read cache forgets
// that campaign's answer: at once on the replica that wrote (before it answers), and on the
// others when PostgreSQL delivers the write's pg_notify (src/store/funding-channel.ts).

export type FundingChangeListener = (campaignKey: string | undefined) => void;

export interface FundingChanges {
  /** `campaignKey`'s public funding changed (its transaction committed). */
  changed(campaignKey: string): void;
  /** Any campaign's may have changed (the notifications of other replicas were missed). */
  changedAll(): void;
  subscribe(listener: FundingChangeListener): void;
}

export function createFundingChanges(): FundingChanges {
  const listeners: FundingChangeListener[] = [];
  return {
    changed: (campaignKey) => {
      for (const listener of listeners) listener(campaignKey);
    },
    changedAll: () => {
      for (const listener of listeners) listener(undefined);
    },
    subscribe: (listener) => void listeners.push(listener),
  };
}
