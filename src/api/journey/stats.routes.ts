// User-journey statistics (GET /stats/...): the organization's sessions, events, transitions,
// funnel and goals over a period, with the same period rules as URL statistics (startDate, endDate,
// timeZone; clamped to the plan's retention; meta says what was covered). A session belongs to the
// local day of its first activity; events, transitions and goals to the day they happened.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PLAN_LIMITS } from '../../shared/plans.js';
import { WEB_FUNNEL_STAGES } from '../../ingest/journey-events.js';
import { resolvePeriod, type StatsPeriod } from '../../olap/stats-period.js';
import type { AppDeps } from '../deps.js';
import { pageQuery } from '../schemas/paging.js';
import { callerOf } from './caller.js';
import { journeyErrorResponses, stageSchema } from './schemas.js';

const tags = ['user journey: statistics'];
const security: Record<string, string[]>[] = [{ journeyApp: [], journeyAppKey: [] }, { apiKey: [] }];
const AUTH_NOTE =
  ' Statistics need a proven caller: X-App-ID with X-Mobile-App-API-Key, or a Service API key in X-API-KEY; and the user-journey add-on.';

const periodQuery = {
  startDate: z.string().optional().describe('YYYY-MM-DD, inclusive, local to timeZone; default 29 days before endDate'),
  endDate: z.string().optional().describe('YYYY-MM-DD, inclusive; default today'),
  timeZone: z.string().max(64).optional().describe('IANA zone name, default UTC'),
};

const metaSchema = z
  .object({
    dataRetentionDays: z.number().int(),
    actualStartDate: z.string().describe('first local date covered, after retention clamping'),
    actualEndDate: z.string(),
    timeZone: z.string(),
  })
  .meta({ id: 'JourneyStatsMeta' });

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

const revenueSchema = z
  .array(z.object({ currency: z.string(), totalRevenue: z.number(), goals: z.number().int() }))
  .describe('goal values per currency (never summed across currencies), most goals first');

const summarySchema = z.object({
  totalSessions: z.number().int().describe('sessions whose first activity is in the period'),
  uniqueUsers: z.number().int().describe('distinct externalUserIds among them'),
  identifiedSessions: z.number().int().describe('sessions with an externalUserId'),
  totalEvents: z.number().int().describe('session events that happened in the period'),
  totalTransitions: z.number().int(),
  goalCompletions: z.number().int().describe('GOAL_COMPLETED rows in the period (a transactionId counts once)'),
  convertedSessions: z.number().int().describe('sessions of the period that reached GOAL_COMPLETED'),
  conversionRate: z.number().describe('convertedSessions per totalSessions, percent'),
  revenue: revenueSchema,
});

const dailySchema = z.array(
  z.object({
    date: z.string(),
    sessions: z.number().int(),
    uniqueUsers: z.number().int(),
    events: z.number().int(),
    transitions: z.number().int(),
    goalCompletions: z.number().int(),
  }),
).describe('every local date of the period, zero-filled');

const funnelSchema = z
  .object({
    totalSessions: z.number().int(),
    completedSessions: z.number().int().describe('sessions that reached GOAL_COMPLETED'),
    overallConversionRate: z.number().describe('completedSessions per totalSessions, percent'),
    stages: z.array(
      z.object({
        stageName: stageSchema,
        stageOrder: z.number().int().describe('1 to 5'),
        sessionsReached: z.number().int().describe('sessions that recorded this stage or a later one'),
        conversionRate: z.number().describe('percent of the sessions that reached the previous stage (100 for the first stage when any)'),
        percentageOfSessions: z.number().describe('percent of totalSessions'),
      }),
    ),
  })
  .meta({ id: 'JourneyFunnel' });

const platformRowSchema = z.object({
  platform: z.string().describe('WEB, IOS, ANDROID (always listed), UNKNOWN when a session start never arrived'),
  sessions: z.number().int(),
  percentage: z.number(),
  uniqueUsers: z.number().int(),
  convertedSessions: z.number().int(),
  conversionRate: z.number(),
});

const utmRowSchema = z.object({
  utmSource: z.string().describe('"(none)" for sessions without utmSource'),
  sessions: z.number().int(),
  percentage: z.number(),
  convertedSessions: z.number().int(),
  conversionRate: z.number(),
});

const pathSchema = z.object({ fromPlatform: z.string(), toPlatform: z.string(), count: z.number().int(), percentage: z.number() });

const transitionsSummarySchema = z.object({
  totalTransitions: z.number().int(),
  sessionsWithTransition: z.number().int().describe('distinct sessions that made a transition in the period'),
  webToApp: z.number().int().describe('WEB to IOS or ANDROID'),
  appToWeb: z.number().int(),
  paths: z.array(pathSchema).describe('per from → to, most first'),
});

export const journeyStatsRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const stats = deps.journey.stats;
  const periodOf = (request: { query: { startDate?: string | undefined; endDate?: string | undefined; timeZone?: string | undefined } }, plan: keyof typeof PLAN_LIMITS): StatsPeriod =>
    resolvePeriod({
      startDate: request.query.startDate,
      endDate: request.query.endDate,
      timeZone: request.query.timeZone,
      retentionDays: PLAN_LIMITS[plan].dataRetentionDays,
      now: deps.clock(),
    });
  const meta = (p: StatsPeriod) => ({ dataRetentionDays: p.retentionDays, actualStartDate: p.actualStartDate, actualEndDate: p.actualEndDate, timeZone: p.timeZone });
  const config = { journeyAccess: 'stats' as const };

  async function summaryOf(organizationId: number, period: StatsPeriod) {
    const [sessions, activity] = await Promise.all([stats.sessionsSummary(organizationId, period), stats.activityTotals(organizationId, period)]);
    return {
      sessions,
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

  async function funnelOf(organizationId: number, period: StatsPeriod) {
    const { sessions, reached } = await stats.funnel(organizationId, period);
    const completed = reached[4] ?? 0;
    return {
      totalSessions: sessions,
      completedSessions: completed,
      overallConversionRate: percent(completed, sessions),
      stages: WEB_FUNNEL_STAGES.map((stageName, i) => {
        const count = reached[i] ?? 0;
        const previous = i === 0 ? count : (reached[i - 1] ?? 0);
        return { stageName, stageOrder: i + 1, sessionsReached: count, conversionRate: percent(count, previous), percentageOfSessions: percent(count, sessions) };
      }),
    };
  }

  async function platformsOf(organizationId: number, period: StatsPeriod) {
    const rows = await stats.byPlatform(organizationId, period);
    const total = rows.reduce((a, r) => a + r.sessions, 0);
    return rows.map((r) => ({
      platform: r.platform,
      sessions: r.sessions,
      percentage: percent(r.sessions, total),
      uniqueUsers: r.uniqueUsers,
      convertedSessions: r.converted,
      conversionRate: percent(r.converted, r.sessions),
    }));
  }

  async function utmSourcesOf(organizationId: number, period: StatsPeriod, limit: number, total: number) {
    const rows = await stats.byUtmSource(organizationId, period, limit);
    return rows.map((r) => ({
      utmSource: r.utmSource || '(none)',
      sessions: r.sessions,
      percentage: percent(r.sessions, total),
      convertedSessions: r.converted,
      conversionRate: percent(r.converted, r.sessions),
    }));
  }

  async function transitionsOf(organizationId: number, period: StatsPeriod) {
    const t = await stats.transitionPaths(organizationId, period);
    const isApp = (p: string) => p === 'IOS' || p === 'ANDROID';
    return {
      totalTransitions: t.total,
      sessionsWithTransition: t.sessions,
      webToApp: t.paths.filter((p) => p.fromPlatform === 'WEB' && isApp(p.toPlatform)).reduce((a, p) => a + p.count, 0),
      appToWeb: t.paths.filter((p) => isApp(p.fromPlatform) && p.toPlatform === 'WEB').reduce((a, p) => a + p.count, 0),
      paths: t.paths.map((p) => ({ ...p, percentage: percent(p.count, t.total) })),
    };
  }

  app.get('/stats/dashboard', {
    config,
    schema: {
      tags, security,
      summary: 'User-journey dashboard',
      description: 'Everything a dashboard shows, in one call: summary, funnel, daily series, platforms, top UTM sources, transitions, top event and goal types.' + AUTH_NOTE,
      querystring: z.object(periodQuery),
      response: {
        200: z
          .object({
            summary: summarySchema,
            funnel: funnelSchema,
            daily: dailySchema,
            platforms: z.array(platformRowSchema),
            topUtmSources: z.array(utmRowSchema).describe('up to 10'),
            transitions: transitionsSummarySchema,
            topEventTypes: z.array(z.object({ eventType: z.string(), count: z.number().int() })).describe('up to 20'),
            topGoalTypes: z.array(z.object({ goalType: z.string(), count: z.number().int(), value: z.number() })).describe('up to 20; value sums goalValue across currencies'),
            meta: metaSchema,
          })
          .meta({ id: 'JourneyDashboard' }),
        ...journeyErrorResponses,
      },
    },
  }, async (request) => {
    const { organization } = callerOf(request);
    const period = periodOf(request, organization.plan);
    const [{ summary, activity, sessions }, funnel, daily, platforms, transitions] = await Promise.all([
      summaryOf(organization.id, period),
      funnelOf(organization.id, period),
      stats.daily(organization.id, period),
      platformsOf(organization.id, period),
      transitionsOf(organization.id, period),
    ]);
    const topUtmSources = await utmSourcesOf(organization.id, period, 10, sessions.sessions);
    return {
      summary,
      funnel,
      daily,
      platforms,
      topUtmSources,
      transitions,
      topEventTypes: activity.eventTypes,
      topGoalTypes: activity.goalTypes,
      meta: meta(period),
    };
  });

  app.get('/stats/summary', {
    config,
    schema: {
      tags, security,
      summary: 'User-journey totals of a period',
      description: 'Sessions, users, events, transitions, goals, conversion and revenue per currency.' + AUTH_NOTE,
      querystring: z.object(periodQuery),
      response: { 200: summarySchema.extend({ meta: metaSchema }).meta({ id: 'JourneySummary' }), ...journeyErrorResponses },
    },
  }, async (request) => {
    const { organization } = callerOf(request);
    const period = periodOf(request, organization.plan);
    return { ...(await summaryOf(organization.id, period)).summary, meta: meta(period) };
  });

  app.get('/stats/daily', {
    config,
    schema: {
      tags, security,
      summary: 'User-journey figures per local day',
      description: 'Sessions (by first activity), unique users, events, transitions and goal completions for every date of the period.' + AUTH_NOTE,
      querystring: z.object(periodQuery),
      response: { 200: z.object({ daily: dailySchema, meta: metaSchema }).meta({ id: 'JourneyDaily' }), ...journeyErrorResponses },
    },
  }, async (request) => {
    const { organization } = callerOf(request);
    const period = periodOf(request, organization.plan);
    return { daily: await stats.daily(organization.id, period), meta: meta(period) };
  });

  app.get('/stats/sessions/summary', {
    config,
    schema: {
      tags, security,
      summary: 'Session figures of a period',
      description:
        'bounceRate: sessions with at most one event, no transition and no goal. Durations run from the first to the last activity.' + AUTH_NOTE,
      querystring: z.object(periodQuery),
      response: {
        200: z
          .object({
            totalSessions: z.number().int(),
            uniqueUsers: z.number().int(),
            identifiedSessions: z.number().int(),
            averageEventsPerSession: z.number(),
            averageDurationSeconds: z.number(),
            bounceRate: z.number().describe('percent'),
            sessionsWithTransition: z.number().int(),
            crossPlatformRate: z.number().describe('sessionsWithTransition per totalSessions, percent'),
            convertedSessions: z.number().int(),
            conversionRate: z.number(),
            meta: metaSchema,
          })
          .meta({ id: 'JourneySessionsSummary' }),
        ...journeyErrorResponses,
      },
    },
  }, async (request) => {
    const { organization } = callerOf(request);
    const period = periodOf(request, organization.plan);
    const s = await stats.sessionsSummary(organization.id, period);
    return {
      totalSessions: s.sessions,
      uniqueUsers: s.uniqueUsers,
      identifiedSessions: s.identifiedSessions,
      averageEventsPerSession: s.sessions === 0 ? 0 : Math.round((s.events / s.sessions) * 100) / 100,
      averageDurationSeconds: Math.round(s.averageDurationMs / 100) / 10,
      bounceRate: percent(s.bouncedSessions, s.sessions),
      sessionsWithTransition: s.sessionsWithTransition,
      crossPlatformRate: percent(s.sessionsWithTransition, s.sessions),
      convertedSessions: s.convertedSessions,
      conversionRate: percent(s.convertedSessions, s.sessions),
      meta: meta(period),
    };
  });

  app.get('/stats/sessions/by-platform', {
    config,
    schema: {
      tags, security,
      summary: 'Sessions per platform',
      description: 'WEB, IOS and ANDROID are always listed.' + AUTH_NOTE,
      querystring: z.object(periodQuery),
      response: { 200: z.object({ platforms: z.array(platformRowSchema), meta: metaSchema }).meta({ id: 'JourneySessionsByPlatform' }), ...journeyErrorResponses },
    },
  }, async (request) => {
    const { organization } = callerOf(request);
    const period = periodOf(request, organization.plan);
    return { platforms: await platformsOf(organization.id, period), meta: meta(period) };
  });

  app.get('/stats/sessions/by-utm-source', {
    config,
    schema: {
      tags, security,
      summary: 'Sessions per UTM source',
      description: 'Most sessions first; percentage is of all sessions of the period.' + AUTH_NOTE,
      querystring: z.object({ ...periodQuery, limit: z.coerce.number().int().min(1, 'must be between 1 and 100').max(100, 'must be between 1 and 100').default(20) }),
      response: { 200: z.object({ sources: z.array(utmRowSchema), meta: metaSchema }).meta({ id: 'JourneySessionsByUtmSource' }), ...journeyErrorResponses },
    },
  }, async (request) => {
    const { organization } = callerOf(request);
    const period = periodOf(request, organization.plan);
    const total = (await stats.sessionsSummary(organization.id, period)).sessions;
    return { sources: await utmSourcesOf(organization.id, period, request.query.limit, total), meta: meta(period) };
  });

  app.get('/stats/sessions/list', {
    config,
    schema: {
      tags, security,
      summary: 'Sessions of a period, newest first (paged)',
      description: 'Filters: platform, utmSource, externalUserId.' + AUTH_NOTE,
      querystring: z.object({
        ...periodQuery,
        ...pageQuery,
        platform: z.enum(['WEB', 'IOS', 'ANDROID']).optional(),
        utmSource: z.string().max(100).optional(),
        externalUserId: z.string().max(200).optional(),
      }),
      response: {
        200: z
          .object({
            content: z.array(
              z.object({
                sessionId: z.string(),
                platform: z.string(),
                startedAt: z.string().describe('first activity'),
                lastActivityAt: z.string(),
                durationSeconds: z.number(),
                externalUserId: z.string().nullable(),
                utmSource: z.string().nullable(),
                utmMedium: z.string().nullable(),
                utmCampaign: z.string().nullable(),
                events: z.number().int(),
                transitions: z.number().int(),
                furthestStage: stageSchema.nullable().describe('the furthest web funnel stage reached'),
                goalCompletions: z.number().int(),
              }),
            ),
            page: z.number().int(),
            size: z.number().int(),
            totalElements: z.number().int(),
            totalPages: z.number().int(),
            first: z.boolean(),
            last: z.boolean(),
            meta: metaSchema,
          })
          .meta({ id: 'JourneySessionList' }),
        ...journeyErrorResponses,
      },
    },
  }, async (request) => {
    const { organization } = callerOf(request);
    const period = periodOf(request, organization.plan);
    const { page, size, platform, utmSource, externalUserId } = request.query;
    const { items, total } = await stats.listSessions(organization.id, period, { platform, utmSource, externalUserId }, { page, size });
    const pages = Math.ceil(total / size);
    return {
      content: items.map((s) => ({
        sessionId: s.sessionId,
        platform: s.platform,
        startedAt: s.startedAt.toISOString(),
        lastActivityAt: s.lastActivityAt.toISOString(),
        durationSeconds: Math.round((s.lastActivityAt.getTime() - s.startedAt.getTime()) / 100) / 10,
        externalUserId: s.externalUserId,
        utmSource: s.utmSource,
        utmMedium: s.utmMedium,
        utmCampaign: s.utmCampaign,
        events: s.events,
        transitions: s.transitions,
        furthestStage: s.maxStage >= 1 ? (WEB_FUNNEL_STAGES[s.maxStage - 1] ?? null) : null,
        goalCompletions: s.goals,
      })),
      page,
      size,
      totalElements: total,
      totalPages: pages,
      first: page === 0,
      last: page >= pages - 1,
      meta: meta(period),
    };
  });

  app.get('/stats/transitions/summary', {
    config,
    schema: {
      tags, security,
      summary: 'Platform transitions of a period',
      querystring: z.object(periodQuery),
      description: 'Per path (from → to), with web-to-app and app-to-web totals.' + AUTH_NOTE,
      response: { 200: transitionsSummarySchema.extend({ meta: metaSchema }).meta({ id: 'JourneyTransitionsSummary' }), ...journeyErrorResponses },
    },
  }, async (request) => {
    const { organization } = callerOf(request);
    const period = periodOf(request, organization.plan);
    return { ...(await transitionsOf(organization.id, period)), meta: meta(period) };
  });

  app.get('/stats/transitions/trend', {
    config,
    schema: {
      tags, security,
      summary: 'Platform transitions per local day',
      querystring: z.object(periodQuery),
      description: 'Every date of the period, with its total and its paths.' + AUTH_NOTE,
      response: {
        200: z
          .object({
            daily: z.array(
              z.object({
                date: z.string(),
                total: z.number().int(),
                paths: z.array(z.object({ fromPlatform: z.string(), toPlatform: z.string(), count: z.number().int() })),
              }),
            ),
            meta: metaSchema,
          })
          .meta({ id: 'JourneyTransitionsTrend' }),
        ...journeyErrorResponses,
      },
    },
  }, async (request) => {
    const { organization } = callerOf(request);
    const period = periodOf(request, organization.plan);
    const days = await stats.transitionTrend(organization.id, period);
    return { daily: days.map((d) => ({ date: d.date, total: d.paths.reduce((a, p) => a + p.count, 0), paths: d.paths })), meta: meta(period) };
  });
};
