// Counts Service API calls per organization in memory and adds them to PostgreSQL every second,
// so the monthly quota costs no database write per request. With several instances each sees the
// others' calls after their next flush: a quota can be overshot by about one second of traffic.
import type { Logger } from '../shared/logger.js';
import { utcMonthStart } from '../shared/time.js';
import type { UsageRepo } from './usage.repo.js';

export interface UsageMeter {
  count(organizationId: number, at: Date): void;
  /** Calls counted here and not yet flushed, for the month of `at`. */
  pending(organizationId: number, at: Date): number;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createUsageMeter(options: { repo: UsageRepo; log: Logger; flushIntervalMs?: number }): UsageMeter {
  const log = options.log.child({ module: 'usage-meter' });
  /** month → organization → calls */
  let counts = new Map<string, Map<number, number>>();
  /** Counts being written right now: still pending for a reader until the write is done. */
  let inFlight = new Map<string, Map<number, number>>();
  let flushing: Promise<void> | undefined;

  async function flushOnce(): Promise<void> {
    const taken = counts;
    counts = new Map();
    inFlight = taken;
    for (const [month, perOrg] of taken) {
      try {
        await options.repo.addCalls(month, perOrg);
      } catch (err) {
        // Put the counts back; they go out with the next flush.
        const current = counts.get(month) ?? new Map<number, number>();
        for (const [org, n] of perOrg) current.set(org, (current.get(org) ?? 0) + n);
        counts.set(month, current);
        log.warn({ err }, 'usage flush failed, will retry');
      }
    }
    inFlight = new Map();
  }

  const flush = () => (flushing ??= flushOnce().finally(() => (flushing = undefined)));
  const timer = setInterval(() => void flush(), options.flushIntervalMs ?? 1000);
  timer.unref();

  return {
    count(organizationId, at) {
      const month = utcMonthStart(at);
      let perOrg = counts.get(month);
      if (!perOrg) counts.set(month, (perOrg = new Map()));
      perOrg.set(organizationId, (perOrg.get(organizationId) ?? 0) + 1);
    },
    pending(organizationId, at) {
      const month = utcMonthStart(at);
      return (counts.get(month)?.get(organizationId) ?? 0) + (inFlight.get(month)?.get(organizationId) ?? 0);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
      if (flushing) await flushing;
      await flushOnce();
    },
  };
}
