// Service API statistics of short URLs and campaigns (GET urls/{id}/stats, campaigns/{id}/stats):
// time-zone-correct series and top lists from ClickHouse. The spec leaves element shapes open; ours
// are documented here and in the OpenAPI document: every top list is [{name, count, percentage}].
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../shared/errors.js';
import type { ClickStats } from '../../olap/click-stats.js';
import type { RevenueStats } from '../../olap/revenue-stats.js';
import type { AppDeps } from '../deps.js';
import { commonErrorResponses, idParams } from '../schemas/common.js';
import { shortUrlSchema, toShortUrlJson } from './short-urls.routes.js';
import { HOUR_LABELS, meta, metaSchema, periodQuery, periodResolver, topItem } from './stats-common.js';

export const statisticsRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const tags = ['service: statistics'];
  const security = [{ apiKey: [] }];
  const periodFor = periodResolver(deps);

  app.get('/urls/:id/stats', {
    schema: {
      tags, security, summary: 'Click statistics of a short URL',
      params: idParams,
      querystring: z.object(periodQuery),
      response: {
        200: z
          .object({
            url: shortUrlSchema,
            chartLabels: z.array(z.string()).describe('every date of the period, YYYY-MM-DD'),
            chartData: z.array(z.number().int()).describe('clicks per date'),
            hourlyChartLabels: z.array(z.string()).describe('"00:00" to "23:00"'),
            hourlyChartData: z.array(z.number().int()).describe('clicks per hour of day over the period'),
            topReferrers: z.array(topItem),
            topCountries: z.array(topItem),
            topBrowsers: z.array(topItem),
            topOsSystems: z.array(topItem),
            deviceTypeStats: z.array(topItem).describe('always Mobile, Desktop, Tablet'),
            meta: metaSchema,
          })
          .meta({ id: 'UrlStats' }),
        ...commonErrorResponses,
      },
    },
  }, async (request) => {
    const { organization } = request.serviceAuth!;
    const url = await deps.repos.shortUrls.get(organization.id, request.params.id);
    if (!url) throw notFound('SHORT_URL_NOT_FOUND', `short URL ${request.params.id} does not exist`);
    const period = periodFor(organization.plan, request.query);
    const [stats, counts] = await Promise.all([
      deps.clickStats.forLink({ organizationId: organization.id, linkType: 'url', linkId: url.id, period }),
      deps.clickCounts.forLinks(organization.id, 'url', [url.id]),
    ]);
    return {
      url: toShortUrlJson(url, deps.config.publicBaseUrl, counts.get(url.id) ?? 0),
      chartLabels: stats.daily.map((d) => d.date),
      chartData: stats.daily.map((d) => d.count),
      hourlyChartLabels: HOUR_LABELS,
      hourlyChartData: stats.hourly.map((h) => h.count),
      topReferrers: stats.referrers,
      topCountries: stats.countries,
      topBrowsers: stats.browsers,
      topOsSystems: stats.operatingSystems,
      deviceTypeStats: stats.deviceTypes,
      meta: meta(period),
    };
  });

  app.get('/campaigns/:id/stats', {
    schema: {
      tags, security, summary: 'Click statistics of a campaign',
      params: idParams,
      querystring: z.object({
        ...periodQuery,
        customId: z.string().max(100, 'must be at most 100 characters').optional().describe('only clicks carrying this cid'),
      }),
      response: {
        200: z
          .object({
            campaign: z.object({ id: z.number().int(), name: z.string(), alias: z.string(), createdAt: z.string(), expiresAt: z.string().nullable() }),
            totalClicks: z.number().int(),
            dailyClicks: z.array(z.object({ date: z.string(), count: z.number().int() })),
            hourlyClicks: z.array(z.object({ hour: z.string(), count: z.number().int() })),
            userClicks: z.array(topItem).describe('clicks per cid (user tracking id), most first, up to 100'),
            topCountries: z.array(topItem),
            topTrackers: z.array(topItem),
            topBrowsers: z.array(topItem),
            topOs: z.array(topItem),
            topReferrers: z.array(topItem),
            deviceTypeStats: z.array(topItem),
            revenueStats: z.object({
              available: z.boolean().describe('false when the organization has no revenue-analytics add-on: every figure is then empty'),
              currency: z.string().nullable().describe('currency of totalRevenue and dailyRevenue: the one with most purchases'),
              totalRevenue: z.number(),
              purchases: z.number().int(),
              averageOrderValue: z.number().describe('totalRevenue / purchases in that currency'),
              purchaseConversionRate: z.number().describe('purchases (all currencies) per click, percent'),
              dailyRevenue: z.array(z.object({ date: z.string(), revenue: z.number(), purchases: z.number().int() })).describe('every date of the period, in the main currency'),
              byCurrency: z.array(z.object({ currency: z.string(), totalRevenue: z.number(), purchases: z.number().int() })).describe('never summed across currencies'),
            }),
            meta: metaSchema,
          })
          .meta({ id: 'CampaignStats' }),
        ...commonErrorResponses,
      },
    },
  }, async (request) => {
    const { organization } = request.serviceAuth!;
    const campaign = await deps.repos.campaigns.get(organization.id, request.params.id);
    if (!campaign) throw notFound('CAMPAIGN_NOT_FOUND', `campaign ${request.params.id} does not exist`);
    const { customId, ...periodParams } = request.query;
    const period = periodFor(organization.plan, periodParams);
    const stats: ClickStats = await deps.clickStats.forLink({ organizationId: organization.id, linkType: 'campaign', linkId: campaign.id, period, customId });
    // Revenue analysis is an add-on (spec, "Goal types"); without it the figures stay empty.
    const revenueStats = organization.revenueAnalytics
      ? { available: true, ...(await deps.revenueStats.forLink({ organizationId: organization.id, linkType: 'campaign', linkId: campaign.id, period, clicks: stats.total })) }
      : { available: false, ...emptyRevenue(period.days) };
    return {
      campaign: {
        id: campaign.id,
        name: campaign.name,
        alias: campaign.alias,
        createdAt: campaign.createdAt.toISOString(),
        expiresAt: campaign.expiresAt ? campaign.expiresAt.toISOString() : null,
      },
      totalClicks: stats.total,
      dailyClicks: stats.daily,
      hourlyClicks: stats.hourly,
      userClicks: stats.customIds,
      topCountries: stats.countries,
      topTrackers: stats.trackers,
      topBrowsers: stats.browsers,
      topOs: stats.operatingSystems,
      topReferrers: stats.referrers,
      deviceTypeStats: stats.deviceTypes,
      revenueStats,
      meta: meta(period),
    };
  });
};

function emptyRevenue(days: string[]): RevenueStats {
  return {
    currency: null,
    totalRevenue: 0,
    purchases: 0,
    averageOrderValue: 0,
    purchaseConversionRate: 0,
    dailyRevenue: days.map((date) => ({ date, revenue: 0, purchases: 0 })),
    byCurrency: [],
  };
}
