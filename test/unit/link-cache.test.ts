// The link cache in front of PostgreSQL (src/oltp/link-cache.ts), driven with a load function that
// counts its calls and resolves when the test says so, and with an injected clock.
import { describe, expect, it } from 'vitest';
import { createLinkCache, type LinkCacheOptions } from '../../src/oltp/link-cache.js';

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(err: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every queued promise reaction run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A cache whose load answers from `rows` (a key not there does not exist), counts calls per key and
 * tracks how many loads run at once. `manual` loads wait in `pending` until the test settles them.
 */
function harness(overrides: Partial<LinkCacheOptions<string>> & { manual?: boolean } = {}) {
  const rows = new Map<string, string>();
  const calls: string[] = [];
  const pending: Array<{ key: string } & Deferred<string | undefined>> = [];
  let clock = 1_000_000;
  let active = 0;
  let maxActive = 0;
  let failing = false;
  const cache = createLinkCache<string>({
    maxEntries: 100,
    ttlMs: 60_000,
    negativeTtlMs: 10_000,
    maxConcurrentLoads: 10,
    now: () => clock,
    load(key) {
      calls.push(key);
      active++;
      maxActive = Math.max(maxActive, active);
      if (overrides.manual) {
        // The promise itself is handed back, so the cache sees it settle at once.
        const d = deferred<string | undefined>();
        const finish = () => void active--;
        pending.push({
          key,
          promise: d.promise,
          resolve: (value) => {
            finish();
            d.resolve(value);
          },
          reject: (err) => {
            finish();
            d.reject(err);
          },
        });
        return d.promise;
      }
      return Promise.resolve().then(() => {
        active--;
        if (failing) throw new Error('connection refused');
        return rows.get(key);
      });
    },
    ...overrides,
  });
  return {
    cache,
    rows,
    calls,
    pending,
    callsFor: (key: string) => calls.filter((k) => k === key).length,
    maxActive: () => maxActive,
    advance: (ms: number) => {
      clock += ms;
    },
    failLoads: (on: boolean) => {
      failing = on;
    },
  };
}

describe('createLinkCache', () => {
  it('answers a fresh hit synchronously, without loading again', async () => {
    const h = harness();
    h.rows.set('a', 'A');
    const first = h.cache.get('a');
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBe('A');
    expect(h.cache.get('a')).toBe('A');
    expect(h.cache.get('a')).toBe('A');
    expect(h.callsFor('a')).toBe(1);
    expect(h.cache.stats()).toMatchObject({ hits: 2, misses: 1, size: 1 });
  });

  it('loads a key once for a stampede of concurrent requests (single flight)', async () => {
    const h = harness({ manual: true });
    const gets = Array.from({ length: 50 }, () => h.cache.get('hot'));
    expect(h.calls).toEqual(['hot']);
    h.pending[0]!.resolve('HOT');
    expect(await Promise.all(gets)).toEqual(Array(50).fill('HOT'));
    expect(h.cache.get('hot')).toBe('HOT');
    expect(h.calls).toEqual(['hot']);
  });

  it('evicts the least recently used entry beyond maxEntries', async () => {
    const h = harness({ maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) h.rows.set(key, key.toUpperCase());
    await h.cache.get('a');
    await h.cache.get('b');
    expect(h.cache.get('a')).toBe('A'); // a is now more recent than b
    await h.cache.get('c'); // evicts b
    expect(h.cache.stats().size).toBe(2);
    expect(h.cache.get('a')).toBe('A');
    expect(h.cache.get('c')).toBe('C');
    expect(h.cache.get('b')).toBeInstanceOf(Promise);
    expect(h.callsFor('b')).toBe(2);
    expect(h.callsFor('a')).toBe(1);
  });

  it('after the TTL answers at once with what it had, reads the link again in the background, then answers that', async () => {
    const h = harness({ ttlMs: 5_000, manual: true });
    h.rows.set('a', 'old');
    const first = h.cache.get('a');
    h.pending.shift()!.resolve('old');
    expect(await first).toBe('old');
    h.advance(4_999);
    expect(h.cache.get('a')).toBe('old');
    expect(h.callsFor('a')).toBe(1);
    h.advance(1);
    // Not a promise: the click does not wait on the store.
    expect(h.cache.get('a')).toBe('old');
    expect(h.cache.get('a')).toBe('old');
    expect(h.callsFor('a')).toBe(2);
    expect(h.cache.stats()).toMatchObject({ staleServed: 2, misses: 1 });
    h.pending.shift()!.resolve('new');
    await settle();
    expect(h.cache.get('a')).toBe('new');
    expect(h.callsFor('a')).toBe(2);
  });

  it('after the TTL forgets a link that is gone once the background read says so', async () => {
    const h = harness({ ttlMs: 5_000 });
    h.rows.set('a', 'A');
    await h.cache.get('a');
    h.rows.delete('a');
    h.advance(5_000);
    expect(h.cache.get('a')).toBe('A');
    await settle();
    expect(h.cache.get('a')).toBeUndefined();
  });

  it('remembers that a key does not exist, for the negative TTL', async () => {
    const h = harness({ negativeTtlMs: 2_000 });
    expect(await h.cache.get('nope')).toBeUndefined();
    expect(h.cache.get('nope')).toBeUndefined(); // synchronous: a cached "not found"
    expect(h.callsFor('nope')).toBe(1);
    h.rows.set('nope', 'NOW');
    h.advance(2_000);
    expect(await h.cache.get('nope')).toBe('NOW');
    expect(h.callsFor('nope')).toBe(2);
  });

  it('invalidate(predicate) drops matching entries and every negative one, keeps the rest', async () => {
    const h = harness();
    h.rows.set('org1-a', 'org1:A');
    h.rows.set('org2-b', 'org2:B');
    await h.cache.get('org1-a');
    await h.cache.get('org2-b');
    await h.cache.get('missing');
    h.rows.set('missing', 'org2:M');
    h.cache.invalidate((value) => value.startsWith('org1:'));
    expect(h.cache.stats().size).toBe(1);
    expect(h.cache.get('org2-b')).toBe('org2:B');
    expect(await h.cache.get('org1-a')).toBe('org1:A');
    expect(await h.cache.get('missing')).toBe('org2:M');
    expect(h.callsFor('org1-a')).toBe(2);
    expect(h.callsFor('org2-b')).toBe(1);
    expect(h.callsFor('missing')).toBe(2);
  });

  it('invalidate() without a predicate drops everything', async () => {
    const h = harness();
    h.rows.set('a', 'A');
    await h.cache.get('a');
    h.cache.invalidate();
    expect(h.cache.stats().size).toBe(0);
    expect(h.cache.get('a')).toBeInstanceOf(Promise);
  });

  it('does not store what a load started before invalidate() read', async () => {
    const h = harness({ manual: true });
    const before = h.cache.get('a');
    h.cache.invalidate();
    // A request after the change does not join the old look-up: it starts a fresh one.
    const after = h.cache.get('a');
    expect(h.calls).toEqual(['a', 'a']);
    h.pending[0]!.resolve('stale');
    h.pending[1]!.resolve('fresh');
    expect(await before).toBe('stale');
    expect(await after).toBe('fresh');
    expect(h.cache.get('a')).toBe('fresh');

    // Also when the old look-up is the last to finish.
    const old = h.cache.get('b');
    h.cache.invalidate();
    const current = h.cache.get('b');
    h.pending[3]!.resolve('B2');
    await current;
    h.pending[2]!.resolve('B1');
    await old;
    expect(h.cache.get('b')).toBe('B2');
  });

  it('never runs more than maxConcurrentLoads look-ups at once, and runs them all', async () => {
    const h = harness({ manual: true, maxConcurrentLoads: 3 });
    const keys = Array.from({ length: 12 }, (_, i) => `k${i}`);
    const results = keys.map((key) => h.cache.get(key));
    await settle();
    expect(h.pending).toHaveLength(3);
    // Finish look-ups one at a time; each time, another request arrives from a queued reaction
    // (as a concurrent HTTP request would) right when a slot frees up.
    let extra = 0;
    while (h.pending.some((p) => p.key)) {
      const next = h.pending.find((p) => p.key)!;
      const key = next.key;
      next.key = '';
      next.resolve(key.toUpperCase());
      if (extra < 4) queueMicrotask(() => results.push(h.cache.get(`extra${extra++}`)));
      await settle();
      expect(h.maxActive()).toBeLessThanOrEqual(3);
    }
    expect(await Promise.all(results)).toEqual(
      [...keys, 'extra0', 'extra1', 'extra2', 'extra3'].map((k) => k.toUpperCase()),
    );
    expect(h.maxActive()).toBe(3);
  });

  it('serves the stale value when a refresh fails, and fails when it has none', async () => {
    const h = harness({ ttlMs: 1_000, negativeTtlMs: 1_000 });
    h.rows.set('a', 'A');
    await h.cache.get('a');
    h.advance(1_000);
    h.failLoads(true);
    expect(h.cache.get('a')).toBe('A');
    expect(h.cache.stats().staleServed).toBe(1);
    await settle();
    // The stale answer is kept for a short while instead of hammering a store that is down.
    expect(h.cache.get('a')).toBe('A');
    expect(h.callsFor('a')).toBe(2);
    await expect(h.cache.get('never-seen')).rejects.toThrow('connection refused');
    // Once the store is back, the next refresh loads the current value.
    h.failLoads(false);
    h.rows.set('a', 'A2');
    h.advance(1_000);
    expect(h.cache.get('a')).toBe('A');
    await settle();
    expect(h.cache.get('a')).toBe('A2');
  });
});
