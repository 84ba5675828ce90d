// A housekeeping round every few minutes on every instance (purges of expired rows): one round at
// a time, failures logged and retried next round, instances started together spread out, and a
// stop that waits for the round under way so the stores can close after it.
import type { Logger } from '../shared/logger.js';

export interface PeriodicJob {
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

export function startPeriodicJob(options: {
  name: string;
  intervalMs: number;
  log: Logger;
  round: () => Promise<number>;
}): PeriodicJob {
  let running: Promise<number> | undefined;
  const runOnce = () =>
    (running ??= options
      .round()
      .catch((err: unknown) => {
        options.log.warn({ err }, `${options.name} failed; retrying next round`);
        return 0;
      })
      .finally(() => {
        running = undefined;
      }));

  const first = setTimeout(() => void runOnce(), Math.round(Math.random() * Math.min(options.intervalMs, 60_000)));
  const timer = setInterval(() => void runOnce(), options.intervalMs);
  first.unref();
  timer.unref();
  return {
    runOnce,
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}

/** Rounds that a caller may also start, as of a time it names (an operator's trigger, a test). */
export interface QueuedRounds {
  /** One round as of `now` (the clock's time by default); answers what the round counted. */
  run(now?: Date): Promise<number>;
  stop(): Promise<void>;
}

/** What queued rounds run on: the clock, the logger, and how often (ten minutes unless said). */
export interface RoundDeps {
  clock: () => Date;
  log: Logger;
  intervalMs?: number;
}

/**
 * A periodic job whose rounds a caller may also start: one round at a time on this instance,
 * whether the timer or a caller started it. A caller's round rejects with its own failure; the
 * timer's is logged as startPeriodicJob logs it.
 */
export function startQueuedRounds(name: string, deps: RoundDeps, round: (now: Date) => Promise<number>): QueuedRounds {
  let queue: Promise<unknown> = Promise.resolve();
  const run = (now?: Date): Promise<number> => {
    const next = queue.then(() => round(now ?? deps.clock()));
    queue = next.catch(() => {});
    return next;
  };
  const job = startPeriodicJob({ name, intervalMs: deps.intervalMs ?? 10 * 60_000, log: deps.log, round: () => run() });
  return { run, stop: job.stop };
}

/**
 * Handles claimed items one after another: an item whose handling fails goes to `giveBack` (which
 * logs it and releases its claim for a later round) and the others go on. Answers how many were
 * handled (`handle` answering false: nothing was done for that item).
 */
export async function handleClaimed<T>(
  items: readonly T[],
  handle: (item: T) => Promise<boolean>,
  giveBack: (item: T, err: unknown) => Promise<void>,
): Promise<number> {
  let handled = 0;
  for (const item of items) {
    try {
      if (await handle(item)) handled++;
    } catch (err) {
      await giveBack(item, err);
    }
  }
  return handled;
}
