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
