// App-install statistics of the Service API: GET urls/{id}/app-install-stats,
// campaigns/{id}/app-install-stats and mobile-apps/{id}/install-stats share one response shape
// and one service (src/core/stats/install-stats.ts). Element shapes are documented in the OpenAPI
// document and the README.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { InstallStatsAnswer, InstallStatsService, PlatformFilter } from '../../core/stats/install-stats.js';
import { commonErrorResponses, idParams } from '../schemas/common.js';
import { callerOf } from '../request-caller.js';
import { meta, periodQuery, periodSpan, statsMetaSchema, withPeriodQuery } from '../schemas/stats-period.js';
import { security } from './route-docs.js';

const PLATFORMS: Record<string, PlatformFilter> = { all: 'All', ios: 'iOS', android: 'Android' };

export const installQuery = z.object({
  ...periodQuery,
  platform: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return 'All' as PlatformFilter;
      const platform = PLATFORMS[value.toLowerCase()];
      if (!platform) {
        ctx.addIssue({ code: 'custom', message: 'must be All, iOS or Android' });
        return z.NEVER;
      }
      return platform;
    })
    .describe('All (default), iOS or Android; case-insensitive'),
});

const share = (key: string) => z.object({ [key]: z.string(), installs: z.number().int(), percentage: z.number() });

export const installStatsSchema = z
  .object({
    period: z
      .string()
      .describe('"YYYY-MM-DD ~ YYYY-MM-DD", the local dates covered (the requested ones when none is: meta.empty)'),
    appName: z
      .string()
      .describe(
        "the app's name; for a short URL or a campaign, its linked app of the platform filtered on (both names, ' / '-separated, when unfiltered and they differ), its short code or alias when it opens no app",
      ),
    linkAlias: z
      .string()
      .nullable()
      .describe('extension: the short code or campaign alias the statistics are about; null for an app'),
    platform: z.enum(['All', 'iOS', 'Android']),
    totalInstalls: z.number().int(),
    iosInstalls: z.number().int(),
    androidInstalls: z.number().int(),
    totalClicks: z
      .number()
      .int()
      .describe("people's clicks in the period (of the platform filtered on; for an app, from its platform)"),
    conversionRate: z.number().describe('installs per click, percent; 0 without clicks'),
    dailyInstalls: z.array(
      z.object({
        date: z.string(),
        installs: z.number().int(),
        iosInstalls: z.number().int(),
        androidInstalls: z.number().int(),
      }),
    ),
    platformStats: z.array(share('platform')).describe('always iOS then Android'),
    countryStats: z.array(share('country')).describe('most installs first, up to 20'),
    recentInstalls: z
      .array(
        z.object({
          installedAt: z.string(),
          platform: z.enum(['iOS', 'Android']),
          country: z.string(),
          matchType: z.string().describe('referrer, clipboard, fingerprint or organic'),
          confidence: z.number().int(),
          linkType: z.enum(['url', 'campaign']).nullable(),
          linkId: z.number().int().nullable(),
        }),
      )
      .describe('the 10 newest'),
    installsByMatchType: z
      .array(z.object({ matchType: z.string(), installs: z.number().int(), percentage: z.number() }))
      .describe('extension: installs per attribution (referrer, clipboard, fingerprint, organic), most first'),
    dailyReengagements: z
      .array(z.object({ date: z.string(), reengagements: z.number().int(), successful: z.number().int() }))
      .describe('extension: re-engagements (opens of the installed app from a link) per local date of the period'),
    reengagementStats: z.object({
      totalReengagements: z.number().int().describe('opens of the already installed app from a link'),
      successfulReengagements: z.number().int(),
      successRate: z.number(),
      uniqueReengagedUsers: z.number().int(),
      platformDistribution: z.object({ ios: z.number().int(), android: z.number().int(), other: z.number().int() }),
    }),
    funnelStats: z.object({
      totalSessions: z.number().int(),
      completedSessions: z.number().int(),
      overallConversionRate: z.number(),
      stages: z
        .array(
          z.object({
            stageName: z.string(),
            stageOrder: z.number().int(),
            sessionsReached: z.number().int().describe('sessions that reached this stage or a later one'),
            conversionRate: z
              .number()
              .describe("percent of stage 1's sessions (the spec's field; the same as conversionRateFromFirstStage)"),
            conversionRateFromFirstStage: z
              .number()
              .describe('extension: percent of the sessions that reached stage 1'),
            conversionRateFromPreviousStage: z
              .number()
              .describe('extension: percent of the sessions that reached the stage before (100 for stage 1 when any)'),
          }),
        )
        .describe('딥링크 클릭, 스토어 방문, 앱 설치, 앱 실행'),
    }),
    qualityStats: z.object({
      totalAttempts: z.number().int(),
      successfulResolutions: z.number().int(),
      successRate: z.number(),
      fingerprintMatchRate: z.number().describe('fingerprint attempts that matched, percent'),
      failureReasons: z.array(z.object({ name: z.string(), count: z.number().int(), percentage: z.number() })),
    }),
    meta: statsMetaSchema,
  })
  .meta({ id: 'AppInstallStats' });

const counts = (keys: readonly string[]) => z.object(Object.fromEntries(keys.map((k) => [k, z.number().int()])));
const MISS_KEYS = ['no_candidate', 'below_threshold', 'already_consumed', 'expired', 'other'];

const deferredMatchStatsSchema = z
  .object({
    period: z.string().describe('"YYYY-MM-DD ~ YYYY-MM-DD", the local dates covered'),
    appName: z.string(),
    firstLaunches: z.number().int().describe('resolve-fingerprint calls (first launches), matched or not'),
    matched: z.number().int(),
    matchRate: z.number().describe('percent of the first launches'),
    matchesByType: z
      .array(
        z.object({
          matchType: z.enum(['referrer', 'clipboard', 'fingerprint']),
          count: z.number().int(),
          percentage: z.number(),
        }),
      )
      .describe('always referrer, clipboard, then fingerprint; percent of the matches'),
    confidenceDistribution: z
      .array(z.object({ range: z.string(), count: z.number().int(), percentage: z.number() }))
      .describe(
        'matches by confidence, 0-9 to 90-100 (referrer and clipboard matches are 100); percent of the matches',
      ),
    missesByReason: z
      .array(
        z.object({
          reason: z.enum(['no_candidate', 'below_threshold', 'already_consumed', 'expired', 'other']),
          count: z.number().int(),
          percentage: z.number(),
        }),
      )
      .describe(
        'the reasons resolve-fingerprint answered, in this order; other: a matched click whose link was deleted since; percent of the misses',
      ),
    daily: z
      .array(
        z.object({
          date: z.string(),
          firstLaunches: z.number().int(),
          matched: z.number().int(),
          matchesByType: counts(['referrer', 'clipboard', 'fingerprint']),
          missesByReason: counts(MISS_KEYS),
        }),
      )
      .describe('every local date of the period, in timeZone'),
    meta: statsMetaSchema,
  })
  .meta({ id: 'DeferredMatchStats' });

/** The answer every install-statistics route gives. */
export function installStatsJson(a: InstallStatsAnswer) {
  return {
    period: periodSpan(a.period, ' ~ '),
    appName: a.name,
    linkAlias: a.linkAlias,
    platform: a.platform,
    ...a.stats,
    meta: meta(a.period),
  };
}

export const installStatisticsRoutes: FastifyPluginAsyncZod<{ installs: InstallStatsService }> = async (
  app,
  { installs },
) => {
  const schema = (summary: string) => ({
    tags: ['service: statistics'],
    security,
    summary,
    params: idParams,
    querystring: installQuery,
    response: { 200: installStatsSchema, ...commonErrorResponses },
  });

  app.get('/urls/:id/app-install-stats', { schema: schema('App-install statistics of a short URL') }, async (request) =>
    installStatsJson(await withPeriodQuery(installs.forShortUrl(callerOf(request), request.params.id, request.query))),
  );

  app.get(
    '/campaigns/:id/app-install-stats',
    { schema: schema('App-install statistics of a campaign') },
    async (request) =>
      installStatsJson(
        await withPeriodQuery(installs.forCampaign(callerOf(request), request.params.id, request.query)),
      ),
  );

  app.get('/mobile-apps/:id/install-stats', { schema: schema('Install statistics of a mobile app') }, async (request) =>
    installStatsJson(await withPeriodQuery(installs.forMobileApp(callerOf(request), request.params.id, request.query))),
  );

  app.get(
    '/mobile-apps/:id/deferred-match-stats',
    {
      schema: {
        tags: ['service: statistics'],
        security,
        summary: 'How well deferred deep links find the install, per app (extension)',
        description:
          'Every first launch (resolve-fingerprint) of the app over the period: matches by type and confidence, misses by the reason the app heard, per local date.',
        params: idParams,
        querystring: z.object(periodQuery),
        response: { 200: deferredMatchStatsSchema, ...commonErrorResponses },
      },
    },
    async (request) => {
      const { name, period, stats } = await withPeriodQuery(
        installs.deferredMatchesOfApp(callerOf(request), request.params.id, request.query),
      );
      return {
        period: `${period.actualStartDate} ~ ${period.actualEndDate}`,
        appName: name,
        ...stats,
        meta: meta(period),
      };
    },
  );
};
