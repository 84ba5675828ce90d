// Wires reports by mail: members' subscriptions (the console's and the unsubscribe link's) and the
// round that mails each due report through the accounts' mailer.
import { startReportRounds } from '../core/reports/report-rounds.js';
import { createReportSubscriptions, type ReportSubscriptions } from '../core/reports/report-subscriptions.service.js';
import type { Dashboards } from '../core/stats/dashboards.js';
import type { Mailer } from '../mail/mailer.js';
import { createReportSubscriptionsRepo } from '../oltp/report-subscriptions.repo.js';
import { createTagsRepo } from '../oltp/tags.repo.js';
import type { UsersRepo } from '../oltp/users.repo.js';
import type { Wiring } from './wiring.js';

export interface ComposedReports {
  subscriptions: ReportSubscriptions;
  /** One round of report mail as of `now` (tests run it this way); answers how many were mailed. */
  send(now?: Date): Promise<number>;
  stop(): Promise<void>;
}

export function composeReports({
  config,
  log,
  sql,
  repos,
  clock,
  mailer,
  users,
  dashboards,
}: Pick<Wiring, 'config' | 'log' | 'sql' | 'repos' | 'clock'> & {
  mailer: Mailer;
  users: UsersRepo;
  dashboards: Dashboards;
}): ComposedReports {
  const repo = createReportSubscriptionsRepo({ sql });
  const subscriptions = createReportSubscriptions({
    repo,
    tags: createTagsRepo({ sql }),
    shortUrls: repos.shortUrls,
    campaigns: repos.campaigns,
    organizations: repos.organizations,
    clock,
  });
  const rounds = startReportRounds({
    repo,
    subscriptions,
    dashboards,
    users,
    organizations: repos.organizations,
    mailer,
    publicBaseUrl: config.server.publicBaseUrl,
    clock,
    log,
  });
  return { subscriptions, send: rounds.run, stop: rounds.stop };
}
