// The round that mails reports: every instance runs it, and each subscription's period is claimed
// (marked) before its mail is built and sent, so it goes once whichever instance takes it and
// however often the round runs; a mail that fails gives the claim back for the next round. The
// figures are read as the subscriber: a member who has left the organization (or lost the
// statistics permission) gets nothing and their subscription ends.
import type { Mailer } from '../../mail/mailer.js';
import type { OrganizationsRepo } from '../../oltp/organizations.repo.js';
import type { ClaimedReport, ReportSubscriptionsRepo } from '../../oltp/report-subscriptions.repo.js';
import type { UsersRepo } from '../../oltp/users.repo.js';
import { isDomainError } from '../../shared/errors.js';
import { authorize } from '../accounts/permissions.js';
import { handleClaimed, type QueuedRounds, type RoundDeps, startQueuedRounds } from '../periodic-job.js';
import type { Dashboards } from '../stats/dashboards.js';
import { renderReportChart } from './report-chart.js';
import { collectReportFigures } from './report-figures.js';
import { reportMail, reportWords, scopeName } from './report-mail.js';
import { reportPeriods } from './report-period.js';
import type { ReportSubscriptions } from './report-subscriptions.service.js';
import { unsubscribeToken } from './report-subscriptions.service.js';

/** Subscriptions taken per round: a Monday's burst is spread over rounds rather than one long mailing. */
const REPORTS_PER_ROUND = 50;

/** The report rounds; a round answers how many reports it mailed. */
export function startReportRounds(
  deps: RoundDeps & {
    repo: ReportSubscriptionsRepo;
    subscriptions: Pick<ReportSubscriptions, 'nameOf'>;
    dashboards: Dashboards;
    users: Pick<UsersRepo, 'get' | 'roleIn'>;
    organizations: Pick<OrganizationsRepo, 'get'>;
    mailer: Pick<Mailer, 'send'>;
    publicBaseUrl: string;
  },
): QueuedRounds {
  const log = deps.log.child({ module: 'report-mail' });
  let toldNoRenderer = false;

  const dashboardPath = (r: ClaimedReport, period: { startDate: string; endDate: string }) => {
    const query = `?startDate=${period.startDate}&endDate=${period.endDate}&timeZone=${encodeURIComponent(r.timeZone)}`;
    if (r.scope.type === 'url') return `/console/stats/urls/${r.scope.id}${query}`;
    if (r.scope.type === 'campaign') return `/console/stats/campaigns/${r.scope.id}${query}`;
    return `/console/dashboard${query}`;
  };

  /** Mails one claimed report; false when there is no one to send it to (the subscription ended). */
  async function mail(r: ClaimedReport): Promise<boolean> {
    const [organization, user, role] = await Promise.all([
      deps.organizations.get(r.organizationId),
      deps.users.get(r.userId),
      deps.users.roleIn(r.organizationId, r.userId),
    ]);
    const caller = organization && role ? { organization, member: { userId: r.userId, role } } : undefined;
    try {
      if (caller) authorize(caller, 'statistics.read');
    } catch {
      await deps.repo.remove(r.id);
      return false;
    }
    if (!caller || !user) {
      await deps.repo.remove(r.id);
      return false;
    }
    const periods = reportPeriods(r.frequency, r.periodStart);
    let figures: Awaited<ReturnType<typeof collectReportFigures>>;
    try {
      figures = await collectReportFigures(
        { dashboards: deps.dashboards, tagName: deps.repo.tagName },
        caller,
        r.scope,
        periods,
        r.timeZone,
      );
    } catch (err) {
      // The link or tag is gone (its subscription goes with it) or the role no longer reads statistics.
      if (isDomainError(err) && (err.kind === 'not_found' || err.kind === 'forbidden')) {
        await deps.repo.remove(r.id);
        return false;
      }
      throw err;
    }
    const scopeLabel = (await deps.subscriptions.nameOf(r.organizationId, r.scope)) ?? '';
    const name = scopeName(user.language, { type: r.scope.type, name: scopeLabel }, organization!.name);
    const words = reportWords(user.language);
    const chartPng = await renderReportChart({
      title: words.chartTitle(name),
      days: figures.current.daily.map((d) => ({ label: d.date.slice(5), count: d.count })),
      previous: figures.previous.daily.map((d) => d.count),
      seriesName: words.clicks,
      previousName: words.previous,
    });
    if (!chartPng && !toldNoRenderer) {
      toldNoRenderer = true;
      log.warn('no PNG renderer installed (@resvg/resvg-js and its platform package): reports go without their chart');
    }
    await deps.mailer.send(
      reportMail({
        to: user.email,
        language: user.language,
        frequency: r.frequency,
        organizationName: organization!.name,
        name,
        period: periods.current,
        figures,
        chartPng,
        dashboardUrl: `${deps.publicBaseUrl}${dashboardPath(r, periods.current)}`,
        unsubscribeUrl: `${deps.publicBaseUrl}/console/reports/unsubscribe?token=${unsubscribeToken(r)}&lang=${user.language}`,
      }),
    );
    return true;
  }

  return startQueuedRounds('Report mail', { ...deps, log }, async (now) =>
    handleClaimed(
      await deps.repo.claimDue(now, REPORTS_PER_ROUND),
      async (r) => {
        if (!(await mail(r))) return false;
        await deps.repo.markSent(r.id, deps.clock());
        return true;
      },
      async (r, err) => {
        log.warn({ err, subscriptionId: r.id }, 'report not sent; retrying next round');
        await deps.repo.release(r.id, r.periodStart, r.previousPeriodStart);
      },
    ),
  );
}
