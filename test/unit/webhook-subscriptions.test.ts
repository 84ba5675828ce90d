import { describe, expect, it } from 'vitest';
import { createWebhookSubscriptions, type Subscriptions } from '../../src/core/webhooks/webhook-subscriptions.js';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('webhook subscriptions cache', () => {
  it('loads once for concurrent readers and keeps the answer for the TTL', async () => {
    let loads = 0;
    let clock = 0;
    const subs = createWebhookSubscriptions({
      load: async () => {
        loads++;
        return new Map([[loads, new Set(['click' as const])]]);
      },
      ttlMs: 1_000,
      now: () => clock,
    });
    const [a, b] = await Promise.all([subs.current(), subs.current()]);
    expect(loads).toBe(1);
    expect(a).toBe(b);
    clock = 999;
    expect((await subs.current()).has(1)).toBe(true);
    clock = 1_000;
    expect((await subs.current()).has(2)).toBe(true);
    expect(loads).toBe(2);
  });

  it('rereads after an invalidation, and drops a load that began before it', async () => {
    const loads: { promise: Promise<Subscriptions>; resolve: (v: Subscriptions) => void }[] = [];
    const subs = createWebhookSubscriptions({
      load: () => {
        const d = deferred<Subscriptions>();
        loads.push(d);
        return d.promise;
      },
      ttlMs: 60_000,
    });
    const stale = subs.current();
    subs.invalidate(); // an endpoint was saved while the first read was under way
    const fresh = subs.current();
    expect(loads).toHaveLength(2);
    loads[0]!.resolve(new Map());
    loads[1]!.resolve(new Map([[7, new Set(['click' as const])]]));
    expect((await stale).size).toBe(0);
    expect((await fresh).has(7)).toBe(true);
    // The fresh answer is the one kept.
    expect((await subs.current()).has(7)).toBe(true);
    expect(loads).toHaveLength(2);
  });

  it('does not keep a failed load', async () => {
    let fail = true;
    const subs = createWebhookSubscriptions({
      load: async () => {
        if (fail) throw new Error('PostgreSQL is down');
        return new Map();
      },
      ttlMs: 60_000,
    });
    await expect(subs.current()).rejects.toThrow('down');
    fail = false;
    expect((await subs.current()).size).toBe(0);
  });
});
