// The in-process cache in front of the link look-up: bounded LRU, negative entries for unknown
// slugs, a short TTL as a safety net behind explicit invalidation, single flight per key, a cap on
// look-ups in flight (the pool's size, so PostgreSQL is never queued onto), and stale answers while
// a link is read again after its TTL or PostgreSQL cannot be reached. A hit answers synchronously:
// no promise on the hot path.

export interface LinkCacheOptions<V> {
  load(key: string): Promise<V | undefined>;
  maxEntries: number;
  ttlMs: number;
  negativeTtlMs: number;
  maxConcurrentLoads: number;
  now?: () => number;
}

interface Entry<V> {
  value: V | undefined;
  expiresAt: number;
}

export interface LinkCacheStats {
  hits: number;
  misses: number;
  staleServed: number;
  size: number;
}

export interface LinkCache<V> {
  /** The value (or undefined for "does not exist") now when fresh, else a promise of it. */
  get(key: string): V | undefined | Promise<V | undefined>;
  /** Drops entries whose value matches, and every negative entry (a new slug may now exist). */
  invalidate(matches?: (value: V) => boolean): void;
  stats(): LinkCacheStats;
}

export function createLinkCache<V>(options: LinkCacheOptions<V>): LinkCache<V> {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<V>>();
  const inFlight = new Map<string, Promise<V | undefined>>();
  const waiting: Array<() => void> = [];
  let loading = 0;
  /** Bumped by invalidate(): a look-up started before it must not store what it read. */
  let generation = 0;
  const counters = { hits: 0, misses: 0, staleServed: 0 };

  async function withSlot<T>(fn: () => Promise<T>): Promise<T> {
    // A finished look-up hands its slot straight to the next waiter (loading stays counted), so a
    // request arriving before the waiter resumes cannot take the same slot as well.
    if (loading >= options.maxConcurrentLoads) await new Promise<void>((resolve) => waiting.push(resolve));
    else loading++;
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else loading--;
    }
  }

  function store(key: string, value: V | undefined): void {
    entries.delete(key);
    entries.set(key, { value, expiresAt: now() + (value === undefined ? options.negativeTtlMs : options.ttlMs) });
    if (entries.size > options.maxEntries) entries.delete(entries.keys().next().value as string);
  }

  function refresh(key: string, stale: Entry<V> | undefined): Promise<V | undefined> {
    let pending = inFlight.get(key);
    if (pending) return pending;
    const startedIn = generation;
    pending = withSlot(() => options.load(key))
      .then((value) => {
        if (startedIn === generation) store(key, value);
        return value;
      })
      .catch((err: unknown) => {
        // The store is down: an answer we had is better than none. Retry after a short while. (A
        // link that exists was answered from it already, without waiting for this.)
        if (stale) {
          if (stale.value === undefined) counters.staleServed++;
          stale.expiresAt = now() + Math.min(5_000, options.negativeTtlMs);
          return stale.value;
        }
        throw err;
      })
      .finally(() => {
        if (inFlight.get(key) === pending) inFlight.delete(key);
      });
    inFlight.set(key, pending);
    return pending;
  }

  return {
    get(key) {
      const entry = entries.get(key);
      if (entry && entry.expiresAt > now()) {
        counters.hits++;
        // Recency for the LRU: re-insert at the end.
        entries.delete(key);
        entries.set(key, entry);
        return entry.value;
      }
      // A link that was there and only outlived the TTL (a safety net: changes invalidate it at
      // once) keeps answering while it is read again in the background. Waiting instead made every
      // cached link's next click wait on PostgreSQL once a TTL, all of a burst of links together.
      if (entry?.value !== undefined) {
        counters.staleServed++;
        void refresh(key, entry);
        return entry.value;
      }
      counters.misses++;
      return refresh(key, entry);
    },
    invalidate(matches) {
      generation++;
      // Requests from now on start a fresh look-up instead of joining one that may read old rows.
      inFlight.clear();
      for (const [key, entry] of entries) {
        if (entry.value === undefined || !matches || matches(entry.value)) entries.delete(key);
      }
    },
    stats() {
      return { ...counters, size: entries.size };
    },
  };
}
