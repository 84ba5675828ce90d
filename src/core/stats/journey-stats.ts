// User-journey statistics of an organization over a period: sessions, events, transitions, funnel
// and goals, with the period rules of every statistics answer (clamped to the plan's retention).
// A session belongs to the local day it started; events, transitions and goals to the
// day they happened. Rates are percent with one decimal.
import { WEB_FUNNEL_STAGES, type WebFunnelStage } from '../../ingest/journey-events.js';
import {
  type ActivityTotals,
  JOURNEY_PARTS,
  type JourneyStats,
  type SessionFigures,
  type SessionGroup,
  type TransitionPaths,
} from '../../olap/journey-stats.queries.js';
import { percent } from '../../olap/percent.js';
import type { StatsCaller } from './link-stats.js';
import { compareRows, readWithPrevious } from './comparison.js';
import { periodForPlan, type PeriodInput, type StatsPeriod } from './period.js';

export interface SessionListFilter {
  platform?: string | undefined;
  utmSource?: string | undefined;
  externalUserId?: string | undefined;
}

/** The journey queries that take only the organization and the period. */
type PeriodQueryName = {
  [K in keyof JourneyStats]: JourneyStats[K] extends (organizationId: number, period: StatsPeriod) => Promise<unknown>
    ? K
    : never;
}[keyof JourneyStats];

const isApp = (p: string) => p === 'IOS' || p === 'ANDROID';
const sumCounts = (paths: { count: number }[]) => paths.reduce((a, p) => a + p.count, 0);

export function createJourneyStatsService(deps: { stats: JourneyStats; clock: () => Date }) {
  const { stats } = deps;
  const periodOf = (caller: StatsCaller, input: PeriodInput) =>
    periodForPlan(caller.organization.plan, input, deps.clock());

  /** The session figures and the activity totals: two statistics, one query. */
  async function summaryOf(organizationId: number, period: StatsPeriod) {
    const { figures, activity } = await stats.figures(organizationId, period, {
      figures: JOURNEY_PARTS.sessionFigures,
      activity: JOURNEY_PARTS.activityTotals,
    });
    return summaryFrom(figures, activity);
  }

  function summaryFrom(figures: SessionFigures, activity: ActivityTotals) {
    const sessions = figures.all;
    return {
      figures,
      activity,
      summary: {
        totalSessions: sessions.sessions,
        uniqueUsers: sessions.uniqueUsers,
        identifiedSessions: sessions.identifiedSessions,
        totalEvents: activity.events,
        totalTransitions: activity.transitions,
        goalCompletions: activity.goalCompletions,
        convertedSessions: sessions.convertedSessions,
        conversionRate: percent(sessions.convertedSessions, sessions.sessions),
        revenue: activity.revenue,
      },
    };
  }

  function funnelOf({ sessions, reached }: SessionGroup) {
    const completed = reached[4] ?? 0;
    return {
      totalSessions: sessions,
      completedSessions: completed,
      overallConversionRate: percent(completed, sessions),
      stages: WEB_FUNNEL_STAGES.map((stageName, i) => {
        const count = reached[i] ?? 0;
        const previous = i === 0 ? count : (reached[i - 1] ?? 0);
        const fromPrevious = percent(count, previous);
        return {
          stageName,
          stageOrder: i + 1,
          sessionsReached: count,
          conversionRate: fromPrevious,
          percentageOfSessions: percent(count, sessions),
          conversionRateFromFirstStage: percent(count, reached[0] ?? 0),
          conversionRateFromPreviousStage: fromPrevious,
        };
      }),
    };
  }

  /** Always WEB, IOS and ANDROID; UNKNOWN too when some sessions' start never arrived. */
  function platformsOf(figures: SessionFigures) {
    const byName = new Map(figures.platforms.map((p) => [p.value, p]));
    const names = ['WEB', 'IOS', 'ANDROID', ...(byName.has('') ? [''] : [])];
    return names.map((name) => {
      const p = byName.get(name);
      const sessions = p?.sessions ?? 0;
      const converted = p?.convertedSessions ?? 0;
      return {
        platform: name || 'UNKNOWN',
        sessions,
        percentage: percent(sessions, figures.all.sessions),
        uniqueUsers: p?.uniqueUsers ?? 0,
        convertedSessions: converted,
        conversionRate: percent(converted, sessions),
      };
    });
  }

  function utmSourcesOf(figures: SessionFigures, limit: number) {
    return figures.utmSources.slice(0, limit).map((r) => ({
      utmSource: r.value || '(none)',
      sessions: r.sessions,
      percentage: percent(r.sessions, figures.all.sessions),
      convertedSessions: r.convertedSessions,
      conversionRate: percent(r.convertedSessions, r.sessions),
    }));
  }

  function transitionsOf(t: TransitionPaths) {
    return {
      totalTransitions: t.total,
      sessionsWithTransition: t.sessions,
      webToApp: sumCounts(t.paths.filter((p) => p.fromPlatform === 'WEB' && isApp(p.toPlatform))),
      appToWeb: sumCounts(t.paths.filter((p) => isApp(p.fromPlatform) && p.toPlatform === 'WEB')),
      paths: t.paths.map((p) => ({ ...p, percentage: percent(p.count, t.total) })),
    };
  }

  return {
    /** Everything a dashboard shows: summary, funnel, daily series, platforms, top UTM sources (10), transitions, top event and goal types. */
    async dashboard(caller: StatsCaller, input: PeriodInput & { compare?: 'previous' | 'off' | undefined }) {
      const organizationId = caller.organization.id;
      const { compare, ...periodInput } = input;
      const now = deps.clock();
      const period = periodForPlan(caller.organization.plan, periodInput, now);
      const { current: found, previous } = await readWithPrevious(period, now, compare === 'previous', (p) =>
        stats.dashboard(organizationId, p),
      );
      const { summary, activity, figures } = summaryFrom(found.figures, found.activity);
      const before = previous?.stats && summaryFrom(previous.stats.figures, previous.stats.activity);
      const platforms = platformsOf(figures);
      const topUtmSources = utmSourcesOf(figures, 10);
      /** Each row's sessions against the same row's in the previous period (every UTM source of it); none when not comparable. */
      const sessionsAgainst = <R extends { sessions: number }>(rows: R[], key: (r: R) => string, then: R[]) =>
        compareRows(
          rows.map((r) => ({ ...r, count: r.sessions })),
          key,
          then.map((r): [string, number] => [key(r), r.sessions]),
        ).map((r) => ({ name: key(r), compared: r.compared }));
      return {
        /** The previous period's summary, days and rows when compare=previous was asked for; null otherwise. */
        previous: previous && {
          comparison: previous.comparison,
          summary: before?.summary ?? null,
          daily: previous.stats?.daily ?? [],
          platforms: before ? sessionsAgainst(platforms, (p) => p.platform, platformsOf(before.figures)) : [],
          topUtmSources: before
            ? sessionsAgainst(topUtmSources, (u) => u.utmSource, utmSourcesOf(before.figures, Number.POSITIVE_INFINITY))
            : [],
        },
        summary,
        funnel: funnelOf(figures.all),
        daily: found.daily,
        platforms,
        topUtmSources,
        transitions: transitionsOf(found.transitions),
        topEventTypes: activity.eventTypes,
        topGoalTypes: activity.goalTypes,
        period,
      };
    },

    async summary(caller: StatsCaller, input: PeriodInput) {
      const period = periodOf(caller, input);
      return { summary: (await summaryOf(caller.organization.id, period)).summary, period };
    },

    /**
     * Any statistic of the journey queries (olap/journey-stats.ts) that needs only the organization
     * and the period, answered as the query returns it, under the same period rules as the others:
     * a new statistic of that kind is its query and its route, nothing here.
     */
    async ofPeriod<K extends PeriodQueryName>(
      caller: StatsCaller,
      input: PeriodInput,
      name: K,
    ): Promise<{ result: Awaited<ReturnType<JourneyStats[K]>>; period: StatsPeriod }> {
      const period = periodOf(caller, input);
      const query = stats[name] as (organizationId: number, period: StatsPeriod) => ReturnType<JourneyStats[K]>;
      return { result: await query(caller.organization.id, period), period };
    },

    /**
     * Bounced: at most one event, no transition and no goal. Durations run from the first to the last
     * activity. Events per session: the period's events over its sessions.
     */
    async sessionsSummary(caller: StatsCaller, input: PeriodInput) {
      const period = periodOf(caller, input);
      const figures = await stats.sessionFigures(caller.organization.id, period);
      const s = figures.all;
      return {
        summary: {
          totalSessions: s.sessions,
          uniqueUsers: s.uniqueUsers,
          identifiedSessions: s.identifiedSessions,
          averageEventsPerSession: s.sessions === 0 ? 0 : Math.round((figures.events / s.sessions) * 100) / 100,
          averageDurationSeconds: Math.round(s.averageDurationMs / 100) / 10,
          bounceRate: percent(s.bouncedSessions, s.sessions),
          sessionsWithTransition: s.sessionsWithTransition,
          crossPlatformRate: percent(s.sessionsWithTransition, s.sessions),
          convertedSessions: s.convertedSessions,
          conversionRate: percent(s.convertedSessions, s.sessions),
        },
        period,
      };
    },

    async sessionsByPlatform(caller: StatsCaller, input: PeriodInput) {
      const period = periodOf(caller, input);
      return { platforms: platformsOf(await stats.sessionFigures(caller.organization.id, period)), period };
    },

    /** Most sessions first; percentage is of all sessions of the period. */
    async sessionsByUtmSource(caller: StatsCaller, input: PeriodInput & { limit: number }) {
      const { limit, ...periodInput } = input;
      const period = periodOf(caller, periodInput);
      return { sources: utmSourcesOf(await stats.sessionFigures(caller.organization.id, period), limit), period };
    },

    /** Sessions of the period, newest first, one page. */
    async listSessions(
      caller: StatsCaller,
      input: PeriodInput,
      filter: SessionListFilter,
      page: { page: number; size: number },
    ) {
      const period = periodOf(caller, input);
      const { items, total } = await stats.listSessions(caller.organization.id, period, filter, page);
      return {
        items: items.map((s) => ({
          sessionId: s.sessionId,
          platform: s.platform,
          startedAt: s.startedAt,
          lastActivityAt: s.lastActivityAt,
          durationSeconds: Math.round((s.lastActivityAt.getTime() - s.startedAt.getTime()) / 100) / 10,
          externalUserId: s.externalUserId,
          utmSource: s.utmSource,
          utmMedium: s.utmMedium,
          utmCampaign: s.utmCampaign,
          events: s.events,
          transitions: s.transitions,
          furthestStage:
            s.maxStage >= 1 ? ((WEB_FUNNEL_STAGES[s.maxStage - 1] as WebFunnelStage | undefined) ?? null) : null,
          goalCompletions: s.goals,
        })),
        total,
        period,
      };
    },

    async transitionsSummary(caller: StatsCaller, input: PeriodInput) {
      const period = periodOf(caller, input);
      return { transitions: transitionsOf(await stats.transitionPaths(caller.organization.id, period)), period };
    },

    /** Every date of the period, with its total and its paths. */
    async transitionTrend(caller: StatsCaller, input: PeriodInput) {
      const period = periodOf(caller, input);
      const days = await stats.transitionTrend(caller.organization.id, period);
      return { daily: days.map((d) => ({ date: d.date, total: sumCounts(d.paths), paths: d.paths })), period };
    },
  };
}

export type JourneyStatsService = ReturnType<typeof createJourneyStatsService>;
