// User-journey statistics (GET /stats/...): the organization's sessions, events, transitions,
// funnel and goals over a period, with the same period rules as URL statistics (startDate, endDate,
// timeZone; clamped to the plan's retention; meta says what was covered). A session belongs to the
// local day it started; events, transitions and goals to the day they happened.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { nullableStrings } from '../schemas/common.js';
import type { Caller } from '../../core/caller.js';
import type { JourneyStatsService } from '../../core/stats/journey-stats.js';
import type { StatsPeriod } from '../../core/stats/period.js';
import { pageQuery, pagedShape, toPaged } from '../schemas/paging.js';
import {
  journeyStatsMetaSchema as metaSchema,
  meta,
  periodQuery as statsPeriodQuery,
  withPeriodQuery,
} from '../schemas/stats-period.js';
import { callerOf } from '../request-caller.js';
import { journeyErrorResponses, stageSchema } from './schemas.js';

const tags = ['user journey: statistics'];
const security: Record<string, string[]>[] = [{ appId: [], mobileAppKey: [] }, { apiKey: [] }];
const AUTH_NOTE =
  ' Statistics need a proven caller: X-App-ID with X-Mobile-App-API-Key, or a Service API key in X-API-KEY; and the user-journey add-on.';

const periodQuery = {
  ...statsPeriodQuery,
  timeZone: statsPeriodQuery.timeZone.describe('IANA zone name, default UTC'),
};

type RouteDoc = { summary: string; description: string };

/** The route schema every statistics route shares: its tags, security, auth note and error answers. */
function statsSchema<Q extends z.ZodType, R extends z.ZodType>(doc: RouteDoc, querystring: Q, answer: R) {
  return {
    tags,
    security,
    ...doc,
    description: doc.description + AUTH_NOTE,
    querystring,
    response: { 200: answer, ...journeyErrorResponses },
  };
}

/** What the core answers for a period: the figures and the period it covered. */
type ForPeriod<T> = Promise<T & { period: StatsPeriod }>;

const revenueSchema = z
  .array(z.object({ currency: z.string(), totalRevenue: z.number(), goals: z.number().int() }))
  .describe('goal values per currency (never summed across currencies), most goals first');

const summarySchema = z.object({
  totalSessions: z.number().int().describe('sessions that started in the period'),
  uniqueUsers: z.number().int().describe('distinct externalUserIds among them'),
  identifiedSessions: z.number().int().describe('sessions with an externalUserId'),
  totalEvents: z.number().int().describe('session events that happened in the period'),
  totalTransitions: z.number().int(),
  goalCompletions: z.number().int().describe('GOAL_COMPLETED rows in the period (a transactionId counts once)'),
  convertedSessions: z.number().int().describe('sessions of the period that reached GOAL_COMPLETED'),
  conversionRate: z.number().describe('convertedSessions per totalSessions, percent'),
  revenue: revenueSchema,
});

const dailySchema = z
  .array(
    z.object({
      date: z.string(),
      sessions: z.number().int(),
      uniqueUsers: z.number().int(),
      events: z.number().int(),
      transitions: z.number().int(),
      goalCompletions: z.number().int(),
    }),
  )
  .describe('every local date of the period, zero-filled');

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
        conversionRate: z
          .number()
          .describe(
            'percent of the sessions that reached the previous stage (100 for the first stage when any); the same as conversionRateFromPreviousStage',
          ),
        percentageOfSessions: z.number().describe('percent of totalSessions'),
        conversionRateFromFirstStage: z
          .number()
          .describe(
            'percent of the sessions that reached stage 1 (what conversionRate means in the app-install statistics)',
          ),
        conversionRateFromPreviousStage: z
          .number()
          .describe('percent of the sessions that reached the previous stage (100 for the first stage when any)'),
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

const pathSchema = z.object({
  fromPlatform: z.string(),
  toPlatform: z.string(),
  count: z.number().int(),
  percentage: z.number(),
});

const transitionsSummarySchema = z.object({
  totalTransitions: z.number().int(),
  sessionsWithTransition: z.number().int().describe('distinct sessions that made a transition in the period'),
  webToApp: z.number().int().describe('WEB to IOS or ANDROID'),
  appToWeb: z.number().int(),
  paths: z.array(pathSchema).describe('per from → to, most first'),
});

/** The journey dashboard's answer: every panel in one call. */
export const journeyDashboardSchema = z
  .object({
    summary: summarySchema,
    funnel: funnelSchema,
    daily: dailySchema,
    platforms: z.array(platformRowSchema),
    topUtmSources: z.array(utmRowSchema).describe('up to 10'),
    transitions: transitionsSummarySchema,
    topEventTypes: z.array(z.object({ eventType: z.string(), count: z.number().int() })).describe('up to 20'),
    topGoalTypes: z
      .array(z.object({ goalType: z.string(), count: z.number().int(), value: z.number() }))
      .describe('up to 20; value sums goalValue across currencies'),
    meta: metaSchema,
  })
  .meta({ id: 'JourneyDashboard' });

export const journeyStatsRoutes: FastifyPluginAsyncZod<{ stats: JourneyStatsService }> = async (app, { stats }) => {
  /**
   * One statistics route: a GET with the shared schema; `answer` calls the core, whose period
   * errors name query parameters, and shapes its figures; meta describes the period covered.
   */
  function statsRoute<Q extends z.ZodType, R extends z.ZodType, T>(
    url: string,
    doc: RouteDoc,
    querystring: Q,
    response: R,
    run: (caller: Caller, query: z.output<Q>) => ForPeriod<T>,
    shape: (figures: T) => object,
  ) {
    app.get(
      url,
      { config: { journeyAccess: 'stats' }, schema: statsSchema<z.ZodType, z.ZodType>(doc, querystring, response) },
      async (request) => {
        const { period, ...figures } = await withPeriodQuery(run(callerOf(request), request.query as z.output<Q>));
        return { ...shape(figures as unknown as T), meta: meta(period) };
      },
    );
  }
  const period = z.object(periodQuery);

  statsRoute(
    '/stats/dashboard',
    {
      summary: 'User-journey dashboard',
      description:
        'Everything a dashboard shows, in one call: summary, funnel, daily series, platforms, top UTM sources, transitions, top event and goal types.',
    },
    period,
    journeyDashboardSchema,
    stats.dashboard,
    // The console's own route adds the previous period; the journey API answers the period alone.
    ({ previous: _previous, ...dashboard }) => dashboard,
  );

  statsRoute(
    '/stats/summary',
    {
      summary: 'User-journey totals of a period',
      description: 'Sessions, users, events, transitions, goals, conversion and revenue per currency.',
    },
    period,
    summarySchema.extend({ meta: metaSchema }).meta({ id: 'JourneySummary' }),
    stats.summary,
    ({ summary }) => summary,
  );

  statsRoute(
    '/stats/daily',
    {
      summary: 'User-journey figures per local day',
      description:
        'Sessions (by their start), unique users, events, transitions and goal completions for every date of the period.',
    },
    period,
    z.object({ daily: dailySchema, meta: metaSchema }).meta({ id: 'JourneyDaily' }),
    (caller, query) => stats.ofPeriod(caller, query, 'daily'),
    ({ result }) => ({ daily: result }),
  );

  statsRoute(
    '/stats/sessions/summary',
    {
      summary: 'Session figures of a period',
      description:
        'bounceRate: sessions with at most one event, no transition and no goal. Durations run from the first to the last activity. averageEventsPerSession: the events of the period over its sessions.',
    },
    period,
    z
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
    stats.sessionsSummary,
    ({ summary }) => summary,
  );

  statsRoute(
    '/stats/sessions/by-platform',
    { summary: 'Sessions per platform', description: 'WEB, IOS and ANDROID are always listed.' },
    period,
    z.object({ platforms: z.array(platformRowSchema), meta: metaSchema }).meta({ id: 'JourneySessionsByPlatform' }),
    stats.sessionsByPlatform,
    (figures) => figures,
  );

  statsRoute(
    '/stats/sessions/by-utm-source',
    {
      summary: 'Sessions per UTM source',
      description: 'Most sessions first; percentage is of all sessions of the period.',
    },
    z.object({
      ...periodQuery,
      limit: z.coerce
        .number()
        .int()
        .min(1, 'must be between 1 and 100')
        .max(100, 'must be between 1 and 100')
        .default(20),
    }),
    z.object({ sources: z.array(utmRowSchema), meta: metaSchema }).meta({ id: 'JourneySessionsByUtmSource' }),
    stats.sessionsByUtmSource,
    (figures) => figures,
  );

  const sessionListQuery = z.object({
    ...periodQuery,
    ...pageQuery,
    platform: z.enum(['WEB', 'IOS', 'ANDROID']).optional(),
    utmSource: z.string().max(100).optional(),
    externalUserId: z.string().max(200).optional(),
  });
  statsRoute(
    '/stats/sessions/list',
    {
      summary: 'Sessions of a period, newest first (paged)',
      description: 'Filters: platform, utmSource, externalUserId.',
    },
    sessionListQuery,
    z
      .object({
        ...pagedShape(
          z.object({
            sessionId: z.string(),
            platform: z.string(),
            startedAt: z.string().describe('when the session started'),
            lastActivityAt: z.string(),
            durationSeconds: z.number(),
            ...nullableStrings('externalUserId', 'utmSource', 'utmMedium', 'utmCampaign'),
            events: z.number().int(),
            transitions: z.number().int(),
            furthestStage: stageSchema.nullable().describe('the furthest web funnel stage reached'),
            goalCompletions: z.number().int(),
          }),
        ),
        meta: metaSchema,
      })
      .meta({ id: 'JourneySessionList' }),
    async (caller, { page, size, platform, utmSource, externalUserId, ...periodInput }) => ({
      ...(await stats.listSessions(caller, periodInput, { platform, utmSource, externalUserId }, { page, size })),
      page: { page, size },
    }),
    ({ items, total, page }) => {
      const content = items.map((s) => ({
        ...s,
        startedAt: s.startedAt.toISOString(),
        lastActivityAt: s.lastActivityAt.toISOString(),
      }));
      return toPaged(content, total, page);
    },
  );

  statsRoute(
    '/stats/transitions/summary',
    {
      summary: 'Platform transitions of a period',
      description: 'Per path (from → to), with web-to-app and app-to-web totals.',
    },
    period,
    transitionsSummarySchema.extend({ meta: metaSchema }).meta({ id: 'JourneyTransitionsSummary' }),
    stats.transitionsSummary,
    ({ transitions }) => transitions,
  );

  statsRoute(
    '/stats/transitions/trend',
    {
      summary: 'Platform transitions per local day',
      description: 'Every date of the period, with its total and its paths.',
    },
    period,
    z
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
    stats.transitionTrend,
    (figures) => figures,
  );
};
