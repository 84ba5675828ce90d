// Keeps the deep-link tables bounded: expired tokens, old funnel marks and old debug reports are
// deleted every few minutes. Every instance runs it; the deletes skip rows another instance holds,
// so running it twice at once costs nothing but a query.
import type { Logger } from '../../shared/logger.js';
import { startPeriodicJob, type PeriodicJob } from '../periodic-job.js';
import type { DeepLinkRecordsRepo } from '../../oltp/deep-link-records.repo.js';
import type { DeepLinkTokensRepo } from '../../oltp/deep-link-tokens.repo.js';

const PURGE_INTERVAL_MS = 5 * 60_000;

export function startDeepLinkPurge(options: {
  tokens: DeepLinkTokensRepo;
  records: DeepLinkRecordsRepo;
  log: Logger;
  intervalMs?: number;
}): PeriodicJob {
  const log = options.log.child({ module: 'deep-link-purge' });

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

  return startPeriodicJob({
    name: 'deep-link purge',
    intervalMs: options.intervalMs ?? PURGE_INTERVAL_MS,
    log,
    round: purge,
  });
}
