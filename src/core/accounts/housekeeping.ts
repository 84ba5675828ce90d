// Keeps the account tables bounded: one-time tokens a day after they expired, sessions a week
// after they ended, partner jti entries once their token could no longer be valid anyway.
import type { ConsoleSessionsRepo } from '../../oltp/console-sessions.repo.js';
import type { SignInTokensRepo } from '../../oltp/sign-in-tokens.repo.js';
import type { SsoPartnersRepo } from '../../oltp/sso-partners.repo.js';
import type { Logger } from '../../shared/logger.js';
import { startPeriodicJob, type PeriodicJob } from '../periodic-job.js';
import { JTI_MARGIN_MS } from './sso.service.js';

const DAY_MS = 24 * 3_600_000;

export function startAccountsHousekeeping(deps: {
  tokens: Pick<SignInTokensRepo, 'purgeExpired'>;
  sessions: Pick<ConsoleSessionsRepo, 'purgeEnded'>;
  partners: Pick<SsoPartnersRepo, 'purgeJtis'>;
  clock: () => Date;
  log: Logger;
  intervalMs?: number;
}): PeriodicJob {
  const log = deps.log.child({ module: 'accounts-housekeeping' });
  return startPeriodicJob({
    name: 'accounts housekeeping',
    intervalMs: deps.intervalMs ?? 10 * 60_000,
    log,
    async round() {
      const now = deps.clock().getTime();
      const tokens = await deps.tokens.purgeExpired(new Date(now - DAY_MS));
      await deps.sessions.purgeEnded(new Date(now - 7 * DAY_MS));
      const jtis = await deps.partners.purgeJtis(new Date(now - JTI_MARGIN_MS));
      if (tokens + jtis > 0) log.debug({ tokens, jtis }, 'purged expired sign-in data');
      return tokens + jtis;
    },
  });
}
