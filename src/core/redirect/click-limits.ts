// Click limits, counted in memory so a click never waits on a store. Each instance keeps, per
// limited link, the count PostgreSQL last told it and the clicks it has let through since; about
// once a second it adds those to PostgreSQL (whose answer includes every other instance's) and
// reads the counts of the other links it served lately. On one instance the limit is exact; with
// several, each may let through what the others counted in the last second.
import type { Logger } from '../../shared/logger.js';
import type { ClickLimitsRepo, LimitedLinkKind } from '../../oltp/click-limits.repo.js';

interface Limited {
  kind: LimitedLinkKind;
  id: number;
  clickLimit: number | null;
  limitClicks: number;
}

interface Count {
  kind: LimitedLinkKind;
  id: number;
  /** What PostgreSQL counted, as last heard. */
  stored: number;
  /** The link's count when its record was last read: a change means the limit was set again. */
  loaded: number;
  /** Let through here and not yet added to PostgreSQL. */
  pending: number;
  lastUsed: number;
}

export interface ClickLimits {
  /**
   * Whether the link's limit lets this click through; a click that `counts` is counted when it does.
   * Links without a limit always pass.
   */
  pass(link: Limited, counts: boolean): boolean;
  /** Adds the counted clicks to PostgreSQL and reads the others' (the timer does this every second). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

const FLUSH_MS = 1_000;
/** A link nobody clicked for this long is forgotten (its count is in PostgreSQL). */
const IDLE_MS = 120_000;

export function createClickLimits(options: {
  repo: ClickLimitsRepo;
  log: Logger;
  now?: () => number;
  flushMs?: number;
}): ClickLimits {
  const now = options.now ?? Date.now;
  const counts = new Map<string, Count>();
  let flushing: Promise<void> | undefined;

  function countOf(link: Limited): Count {
    const key = `${link.kind}:${link.id}`;
    let count = counts.get(key);
    if (!count || count.loaded !== link.limitClicks) {
      // First seen, or read again with another count (the limit was set anew): that count holds.
      const pending = count?.pending ?? 0;
      count = {
        kind: link.kind,
        id: link.id,
        stored: link.limitClicks,
        loaded: link.limitClicks,
        pending,
        lastUsed: 0,
      };
      counts.set(key, count);
    }
    count.lastUsed = now();
    return count;
  }

  async function flushNow(): Promise<void> {
    const idle = now() - IDLE_MS;
    const toRead: Record<LimitedLinkKind, Count[]> = { url: [], campaign: [] };
    for (const [key, count] of counts) {
      if (count.pending > 0) {
        const clicks = count.pending;
        count.pending = 0;
        try {
          const total = await options.repo.add(count.kind, count.id, clicks);
          if (total === undefined) counts.delete(key);
          else count.stored = total;
        } catch (err) {
          count.pending += clicks;
          options.log.warn({ err, link: key }, 'click-limit count not saved; retrying');
        }
      } else if (count.lastUsed < idle) {
        counts.delete(key);
      } else {
        toRead[count.kind].push(count);
      }
    }
    for (const kind of ['url', 'campaign'] as const) {
      if (toRead[kind].length === 0) continue;
      try {
        const stored = await options.repo.read(
          kind,
          toRead[kind].map((c) => c.id),
        );
        for (const count of toRead[kind]) {
          const value = stored.get(count.id);
          if (value !== undefined && count.pending === 0) count.stored = Math.max(count.stored, value);
        }
      } catch (err) {
        options.log.warn({ err }, 'click-limit counts not read; keeping the last ones');
      }
    }
  }

  const flush = () => {
    flushing ??= flushNow().finally(() => {
      flushing = undefined;
    });
    return flushing;
  };
  const timer = setInterval(() => void flush(), options.flushMs ?? FLUSH_MS);
  timer.unref();

  return {
    pass(link, counted) {
      if (link.clickLimit === null) return true;
      const count = countOf(link);
      if (count.stored + count.pending >= link.clickLimit) return false;
      if (counted) count.pending++;
      return true;
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flushing;
      await flushNow();
    },
  };
}
