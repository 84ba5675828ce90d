// Keeps the deep-link tables bounded: expired tokens, old funnel marks and old debug reports are
// deleted every few minutes. Every instance runs it; the deletes skip rows another instance holds,
// so running it twice at once costs nothing but a query.
import type { Logger } from '../../shared/logger.js';
import type { DeepLinkRecordsRepo } from '../../oltp/deep-link-records.repo.js';
import type { DeepLinkTokensRepo } from '../../oltp/deep-link-tokens.repo.js';

const PURGE_INTERVAL_MS = 5 * 60_000;

export function startDeepLinkPurge(options: {
  tokens: DeepLinkTokensRepo;
  records: DeepLinkRecordsRepo;
  log: Logger;
  intervalMs?: number;
}): { runOnce(): Promise<number>; stop(): Promise<void> } {
  const log = options.log.child({ module: 'deep-link-purge' });
  let running: Promise<number> | undefined;

  async function purge(): Promise<number> {
    let total = 0;
    // Batches, so one run never holds many rows at once however long the backlog.
    for (let round = 0; round < 100; round++) {
      const n = await options.tokens.purgeExpired();
      total += n;
      if (n === 0) break;
    }
    const old = await options.records.purgeOld();
    if (total + old.marks + old.reports > 0) log.debug({ tokens: total, ...old }, 'purged expired deep-link data');
    return total;
  }

  const runOnce = () =>
    (running ??= purge()
      .catch((err: unknown) => {
        log.warn({ err }, 'deep-link purge failed; retrying next round');
        return 0;
      })
      .finally(() => {
        running = undefined;
      }));

  const interval = options.intervalMs ?? PURGE_INTERVAL_MS;
  // Instances started together spread their rounds out.
  const first = setTimeout(() => void runOnce(), Math.round(Math.random() * Math.min(interval, 60_000)));
  const timer = setInterval(() => void runOnce(), interval);
  first.unref();
  timer.unref();
  return {
    runOnce,
    /** Stops the rounds and waits for one under way, so the stores can close after it. */
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
