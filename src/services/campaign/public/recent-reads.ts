export interface RecentReadsOptions<T> {
  load: (key: string) => Promise<T>;
  /** How long an answer is served again; 0 reads every time. */
  ttlMs: number;
  now: () => Date;
  /** Oldest entries are dropped past this many keys. */
  maxEntries?: number;
  /**
   * Tells of keys whose answers are stale now (undefined: every key): they are dropped, and the
   * next caller loads afresh (a load already under way is not shared with it).
   */
  staleness?: { subscribe(listener: (key: string | undefined) => void): void };
}

/**
 * Serves a key's answer again for `ttlMs`, and lets concurrent callers of one key share a
 * single load. Failures are never kept: the next caller loads again. Many players of one
 * game poll the same campaign, so this turns their reads into one query a key per interval.
 */
export function createRecentReads<T>(options: RecentReadsOptions<T>): (key: string) => Promise<T> {
  const { load, ttlMs, now } = options;
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, { expires: number; value: Promise<T> }>();
  if (ttlMs <= 0) return load;
  options.staleness?.subscribe((key) => (key === undefined ? entries.clear() : entries.delete(key)));
  return (key) => {
    const at = now().getTime();
    const entry = entries.get(key);
    if (entry && entry.expires > at) return entry.value;
    entries.delete(key);
    const value = load(key);
    entries.set(key, { expires: at + ttlMs, value });
    value.catch(() => {
      if (entries.get(key)?.value === value) entries.delete(key);
    });
    if (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    return value;
  };
}
