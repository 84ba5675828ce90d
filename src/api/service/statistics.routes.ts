// Service API statistics of short URLs and campaigns (GET urls/{id}/stats, campaigns/{id}/stats):
// time-zone-correct series and top lists. Element shapes are documented here and in the OpenAPI
// document: every top list is [{name, count, percentage}].
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Caller } from '../../core/caller.js';
import type { ClickFilters } from '../../core/stats/click-filters.js';
import type { LinkStatsService } from '../../core/stats/link-stats.js';
import type { StatsPeriod } from '../../core/stats/period.js';
import { commonErrorResponses, idParams } from '../schemas/common.js';
import { callerOf } from '../request-caller.js';
import { HOUR_LABELS, meta, periodQuery, statsMetaSchema, topItem, withPeriodQuery } from '../schemas/stats-period.js';
import { filterQuery, filtersSchema, geoSchema } from '../schemas/stats-filters.js';
import { shortUrlSchema, toShortUrlJson } from './short-urls.routes.js';
import { security } from './route-docs.js';

/** Clicks per destination sent to (contract: "Routing rules and A/B tests"). */
const destinationStatsSchema = z
  .array(
    z
      .object({
        url: z.string().describe("a rule's or variant's url, or originalUrl (as configured, before UTM parameters)"),
        count: z.number().int(),
        percentage: z.number().describe('share of the period clicks, percent with one decimal'),
        conversions: z
          .number()
          .int()
          .describe(
            'extension: clicks sent here that led to at least one goal or app install, tied to the click by its deep-link token (docs/statistics.md); counted for the click however late the conversion came',
          ),
        conversionRate: z.number().describe('extension: conversions per click sent here, percent with one decimal'),
        installs: z.number().int().describe('extension: app installs attributed to the clicks sent here'),
        goals: z
          .array(z.object({ goalType: z.string(), count: z.number().int() }).meta({ id: 'DestinationGoal' }))
          .describe('extension: goals completed by the clicks sent here, by goal type, most first'),
        revenue: z
          .array(
            z
              .object({
                currency: z.string().describe('ISO 4217; UNKNOWN when a purchase named none'),
                amount: z.number().describe('sum of the purchases, two decimals'),
                purchases: z.number().int(),
              })
              .meta({ id: 'DestinationRevenue' }),
          )
          .describe(
            'extension: purchase goals of the clicks sent here by currency (never summed across currencies), most purchases first; empty without the revenue-analytics add-on',
          ),
      })
      .meta({ id: 'DestinationStat' }),
  )
  .describe(
    "the period's clicks by the destination they were sent to (rules, variants and the original alike), most first",
  );

/** Clicks per region and per city, with a GeoIP database that tells them (meta.geo). */
const regionStatsSchema = z
  .array(topItem)
  .describe(
    "extension: the period's clicks by ISO 3166-2 region (KR-11), most first, up to 10; clicks of unknown region left out; empty unless meta.geo.regions",
  );
const cityStatsSchema = z
  .array(topItem)
  .describe(
    "extension: the period's clicks by city (English name), most first, up to 10; clicks of unknown city left out; empty unless meta.geo.cities",
  );

/** meta of a link's statistics: the period's, and the filters applied. */
const linkStatsMetaSchema = statsMetaSchema
  .extend({
    filters: filtersSchema,
    geo: geoSchema,
  })
  .meta({ id: 'LinkStatsMeta' });

export const statisticsRoutes: FastifyPluginAsyncZod<{ stats: LinkStatsService; publicBaseUrl: string }> = async (
  app,
  { stats: linkStats, publicBaseUrl },
) => {
  const tags = ['service: statistics'];

  /** The statistics of one link: its id and the period in, what `find` found shaped by `answer`, then meta. */
  function linkStatsRoute<
    Q extends z.ZodType,
    T extends { period: StatsPeriod; filters: ClickFilters; geo: { regions: boolean; cities: boolean } },
  >(
    url: string,
    summary: string,
    querystring: Q,
    response: z.ZodType,
    find: (caller: Caller, id: number, query: z.output<Q>) => Promise<T>,
    answer: (found: T) => object,
  ): void {
    const schema = {
      tags,
      security,
      summary,
      params: idParams,
      querystring: querystring as z.ZodType,
      response: { 200: response, ...commonErrorResponses },
    };
    app.get(url, { schema }, async (request) => {
      const found = await withPeriodQuery(find(callerOf(request), request.params.id, request.query as z.output<Q>));
      return { ...answer(found), meta: { ...meta(found.period), filters: found.filters, geo: found.geo } };
    });
  }

  linkStatsRoute(
    '/urls/:id/stats',
    'Click statistics of a short URL',
    z.object({ ...periodQuery, ...filterQuery }),
    z
      .object({
        url: shortUrlSchema,
        chartLabels: z.array(z.string()).describe('every date of the period, YYYY-MM-DD'),
        chartData: z.array(z.number().int()).describe('clicks per date'),
        uniqueVisitors: z
          .number()
          .int()
          .describe(
            "extension: visitors over the period, the sum of its days' distinct visitors (approximate; a visitor is an address and browser within one UTC day)",
          ),
        uniqueVisitorsChartData: z
          .array(z.number().int())
          .describe('extension: distinct visitors per date of chartLabels'),
        hourlyChartLabels: z.array(z.string()).describe('"00:00" to "23:00"'),
        hourlyChartData: z.array(z.number().int()).describe('clicks per hour of day over the period'),
        topReferrers: z.array(topItem),
        topCountries: z.array(topItem),
        topBrowsers: z.array(topItem),
        topOsSystems: z.array(topItem),
        deviceTypeStats: z.array(topItem).describe('always Mobile, Desktop, Tablet'),
        destinationStats: destinationStatsSchema,
        regionStats: regionStatsSchema,
        cityStats: cityStatsSchema,
        meta: linkStatsMetaSchema,
      })
      .meta({ id: 'UrlStats' }),
    linkStats.forShortUrl,
    ({ url, clickCount, stats }) => ({
      url: toShortUrlJson(url, publicBaseUrl, clickCount),
      chartLabels: stats.daily.map((d) => d.date),
      chartData: stats.daily.map((d) => d.count),
      uniqueVisitors: stats.uniqueVisitors,
      uniqueVisitorsChartData: stats.daily.map((d) => d.visitors),
      hourlyChartLabels: HOUR_LABELS,
      hourlyChartData: stats.hourly.map((h) => h.count),
      topReferrers: stats.referrers,
      topCountries: stats.countries,
      topBrowsers: stats.browsers,
      topOsSystems: stats.operatingSystems,
      deviceTypeStats: stats.deviceTypes,
      destinationStats: stats.destinationStats,
      regionStats: stats.regions,
      cityStats: stats.cities,
    }),
  );

  linkStatsRoute(
    '/campaigns/:id/stats',
    'Click statistics of a campaign',
    z.object({
      ...periodQuery,
      ...filterQuery,
      customId: z
        .string()
        .max(100, 'must be at most 100 characters')
        .optional()
        .describe('only clicks carrying this cid'),
    }),
    z
      .object({
        campaign: z.object({
          id: z.number().int(),
          name: z.string(),
          alias: z.string(),
          createdAt: z.string(),
          expiresAt: z.string().nullable(),
        }),
        totalClicks: z.number().int(),
        dailyClicks: z.array(z.object({ date: z.string(), count: z.number().int() })),
        uniqueVisitors: z
          .number()
          .int()
          .describe(
            "extension: visitors over the period, the sum of its days' distinct visitors (approximate; a visitor is an address and browser within one UTC day)",
          ),
        dailyUniqueVisitors: z
          .array(z.object({ date: z.string(), count: z.number().int() }))
          .describe('extension: distinct visitors per date'),
        hourlyClicks: z.array(z.object({ hour: z.string(), count: z.number().int() })),
        userClicks: z.array(topItem).describe('clicks per cid (user tracking id), most first, up to 100'),
        topCountries: z.array(topItem),
        topTrackers: z.array(topItem),
        topBrowsers: z.array(topItem),
        topOs: z.array(topItem),
        topReferrers: z.array(topItem),
        deviceTypeStats: z.array(topItem),
        destinationStats: destinationStatsSchema,
        regionStats: regionStatsSchema,
        cityStats: cityStatsSchema,
        revenueStats: z.object({
          available: z
            .boolean()
            .describe('false when the organization has no revenue-analytics add-on: every figure is then empty'),
          currency: z
            .string()
            .nullable()
            .describe('currency of totalRevenue and dailyRevenue: the one with most purchases'),
          totalRevenue: z.number(),
          purchases: z.number().int(),
          averageOrderValue: z.number().describe('totalRevenue / purchases in that currency'),
          purchaseConversionRate: z.number().describe('purchases (all currencies) per click, percent'),
          dailyRevenue: z
            .array(z.object({ date: z.string(), revenue: z.number(), purchases: z.number().int() }))
            .describe('every date of the period, in the main currency'),
          byCurrency: z
            .array(z.object({ currency: z.string(), totalRevenue: z.number(), purchases: z.number().int() }))
            .describe('never summed across currencies'),
        }),
        meta: linkStatsMetaSchema,
      })
      .meta({ id: 'CampaignStats' }),
    linkStats.forCampaign,
    ({ campaign, stats, revenue }) => ({
      campaign: {
        id: campaign.id,
        name: campaign.name,
        alias: campaign.alias,
        createdAt: campaign.createdAt.toISOString(),
        expiresAt: campaign.expiresAt ? campaign.expiresAt.toISOString() : null,
      },
      totalClicks: stats.total,
      dailyClicks: stats.daily.map(({ date, count }) => ({ date, count })),
      uniqueVisitors: stats.uniqueVisitors,
      dailyUniqueVisitors: stats.daily.map(({ date, visitors }) => ({ date, count: visitors })),
      hourlyClicks: stats.hourly,
      userClicks: stats.customIds,
      topCountries: stats.countries,
      topTrackers: stats.trackers,
      topBrowsers: stats.browsers,
      topOs: stats.operatingSystems,
      topReferrers: stats.referrers,
      deviceTypeStats: stats.deviceTypes,
      destinationStats: stats.destinationStats,
      regionStats: stats.regions,
      cityStats: stats.cities,
      revenueStats: revenue,
    }),
  );
};
