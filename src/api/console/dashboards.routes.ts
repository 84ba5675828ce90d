// The console's click dashboards: the organization's overview and one short URL's or campaign's
// page, over a period in the viewer's time zone, and any panel of either as CSV from the same
// query. Every role reads them (statistics.read); the core clamps the period to the plan.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountServices } from '../../core/accounts/index.js';
import {
  BREAKDOWNS,
  type Dashboard,
  type DashboardInput,
  type Dashboards,
  type DashboardLink,
} from '../../core/stats/dashboards.js';
import { compareFigure, compareRows } from '../../core/stats/comparison.js';
import type { InstallStats, InstallStatsAnswer, InstallStatsService } from '../../core/stats/install-stats.js';
import type { LinkStatsService, RevenueStats } from '../../core/stats/link-stats.js';
import type { TagStatsService } from '../../core/stats/tag-stats.js';
import { idSchema } from '../schemas/common.js';
import {
  HOUR_LABELS,
  meta,
  periodQuery,
  periodSpan,
  statsMetaSchema,
  topItem,
  withPeriodQuery,
} from '../schemas/stats-period.js';
import { filterQuery, filtersSchema, geoSchema } from '../schemas/stats-filters.js';
import {
  compareQuery,
  comparisonPeriodJson,
  comparedRowsSchema,
  comparisonPeriodSchema,
  figureChangeSchema,
  csvComparison,
} from '../schemas/stats-comparison.js';
import { actingMember } from './acting-member.js';
import { fieldsCsv, sendCsv } from '../csv-download.js';
import { toCsv } from '../../shared/csv.js';
import { invalidField } from '../../core/field-error.js';
import { installQuery, installStatsJson, installStatsSchema } from '../service/install-statistics.routes.js';
import { errors, orgParams, security, tags } from './route-docs.js';

const linkSchema = z.object({
  type: z.enum(['url', 'campaign']),
  id: z.number().int(),
  label: z.string(),
  address: z.string(),
});
/** Ids picked one by one, comma-separated: one query parameter of a link set (url, campaign). */
const linkIdsQuery = (kind: string) =>
  z
    .string()
    .max(2_000)
    .optional()
    .describe(
      `only clicks on these ${kind} (ids, comma-separated; with the other of url and campaign, on any of them; at most 100 links in all); an id of no link of the organization matches nothing`,
    );
/**
 * The console's dashboards take the statistics filters, tag names (the links carrying one of them
 * now) and links picked one by one (url, campaign).
 */
const dashboardFilterQuery = {
  ...filterQuery,
  tag: z
    .string()
    .max(10_000)
    .optional()
    .describe(
      "only clicks on links that carry one of these tags now (the organization's tag names, comma-separated, any case); a name it has no tag of matches nothing",
    ),
  url: linkIdsQuery('short URLs'),
  campaign: linkIdsQuery('campaigns'),
};
const dashboardFiltersSchema = z
  .object({
    ...filtersSchema.shape,
    tag: z.array(z.string()).optional(),
    url: z.array(z.number().int()).optional(),
    campaign: z.array(z.number().int()).optional(),
  })
  .describe(
    'the filters applied, tag names and link ids included (as given, trimmed, without repeats); {} without filters',
  );

const comparisonSchema = comparisonPeriodSchema.extend({
  total: figureChangeSchema.nullable(),
  uniqueVisitors: figureChangeSchema.nullable(),
  daily: z
    .array(z.object({ date: z.string(), count: z.number().int(), visitors: z.number().int() }))
    .describe("the previous period's days: the n-th lines up with the period's n-th day"),
  hourly: z.array(z.object({ hour: z.string(), count: z.number().int() })),
  destinations: z
    .array(z.object({ url: z.string(), count: z.number().int() }))
    .describe(
      "one link's previous clicks per destination (its originalUrl for clicks recorded without one), most first; empty for the organization",
    ),
});
/** A breakdown's row, with its change against the previous period when compare=previous. */
const comparedItem = topItem.extend({
  compared: figureChangeSchema
    .nullable()
    .optional()
    .describe(
      "with compare=previous only: the row's clicks in the previous period (previous 0 and trend new when it had none there) and the change in percent; null when the periods cannot be compared",
    ),
});
const dashboardSchema = z.object({
  meta: statsMetaSchema.extend({ filters: dashboardFiltersSchema, geo: geoSchema }),
  total: z.number().int(),
  previousTotal: z.number().int().describe('clicks in as many days just before the period'),
  change: z.number().nullable().describe('percent change against the previous period; null when it had no clicks'),
  uniqueVisitors: z
    .number()
    .int()
    .describe(
      "visitors over the period: the sum of its days' distinct visitors, approximate (an address and browser within one UTC day)",
    ),
  daily: z.array(
    z.object({
      date: z.string(),
      count: z.number().int(),
      visitors: z.number().int().describe('distinct visitors that date'),
    }),
  ),
  hourly: z.array(z.object({ hour: z.string(), count: z.number().int() })),
  heatmap: z.array(
    z.object({
      weekday: z.number().int().describe('1 = Monday … 7 = Sunday'),
      hour: z.number().int(),
      count: z.number().int(),
    }),
  ),
  countries: z.array(comparedItem),
  browsers: z.array(comparedItem),
  operatingSystems: z.array(comparedItem),
  referrers: z.array(comparedItem),
  trackers: z.array(comparedItem),
  deviceTypes: z.array(comparedItem),
  regions: z.array(comparedItem).describe('ISO 3166-2 regions; empty unless meta.geo.regions'),
  cities: z.array(comparedItem).describe('English city names; empty unless meta.geo.cities'),
  utm: z.object({ source: z.array(comparedItem), medium: z.array(comparedItem), campaign: z.array(comparedItem) }),
  topLinks: z.array(
    linkSchema.extend({
      count: z.number().int(),
      percentage: z.number(),
      compared: comparedItem.shape.compared,
    }),
  ),
  link: linkSchema.nullable(),
  chosenLinks: z
    .array(linkSchema)
    .describe(
      'the links the url and campaign filters pick, named (short URLs first, in the order given); an id of no link of the organization is left out; empty without those filters',
    ),
  comparison: comparisonSchema
    .nullable()
    .describe('the previous period beside this one when compare=previous was asked; null otherwise'),
});

const appComparisonSchema = comparisonPeriodSchema.extend({
  totalInstalls: figureChangeSchema.nullable(),
  totalClicks: figureChangeSchema.nullable(),
  conversionRate: figureChangeSchema.nullable().describe('the install rate in percent; change: relative, in percent'),
  totalReengagements: figureChangeSchema.nullable(),
  dailyInstalls: installStatsSchema.shape.dailyInstalls.describe(
    "the previous period's days: the n-th lines up with the period's n-th day",
  ),
  countryStats: comparedRowsSchema.describe(
    'each row of countryStats, in its order (name: the country), against its installs in the previous period; empty when not comparable',
  ),
  installsByMatchType: comparedRowsSchema.describe(
    'each row of installsByMatchType, in its order (name: the match type), against its installs in the previous period',
  ),
});

/** An app's install figures against the previous period's. */
function appComparison(
  current: InstallStats,
  previous: NonNullable<InstallStatsAnswer['previous']>,
): z.infer<typeof appComparisonSchema> {
  const { stats } = previous;
  const figure = (of: (s: InstallStats) => number) => (stats ? compareFigure(of(current), of(stats)) : null);
  /** A list's rows by `key` against the previous period's (read with every row); none when not comparable. */
  const rows = <R extends { installs: number }>(list: (s: InstallStats) => R[], key: (r: R) => string) =>
    stats
      ? compareRows(
          list(current).map((r) => ({ ...r, count: r.installs })),
          key,
          list(stats).map((r): [string, number] => [key(r), r.installs]),
        ).map((r) => ({ name: key(r), compared: r.compared }))
      : [];
  return {
    ...comparisonPeriodJson(previous.comparison),
    totalInstalls: figure((s) => s.totalInstalls),
    totalClicks: figure((s) => s.totalClicks),
    conversionRate: figure((s) => s.conversionRate),
    totalReengagements: figure((s) => s.reengagementStats.totalReengagements),
    dailyInstalls: stats?.dailyInstalls ?? [],
    countryStats: rows(
      (s) => s.countryStats,
      (r) => r.country,
    ),
    installsByMatchType: rows(
      (s) => s.installsByMatchType,
      (r) => r.matchType,
    ),
  };
}

const tagClicksSchema = z.object({
  meta: statsMetaSchema.extend({ filters: dashboardFiltersSchema }),
  tags: z
    .array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        color: z.string().describe('#rrggbb'),
        clicks: z.number().int().describe('clicks on the links carrying the tag now, over the period'),
        visitors: z
          .number()
          .int()
          .describe("the sum of the period's days' distinct visitors of those links, approximate"),
        compared: comparedItem.shape.compared,
      }),
    )
    .describe('every tag of the organization (only the filtered ones with a tag filter), most clicks first'),
  comparison: comparisonPeriodSchema
    .nullable()
    .describe('the previous period (its dates, whether it compares) when compare=previous was asked; null otherwise'),
});

function toJson(d: Dashboard, link: DashboardLink | null): z.infer<typeof dashboardSchema> {
  const { stats } = d;
  return {
    meta: { ...meta(d.period), filters: d.filters, geo: d.geo },
    total: stats.total,
    previousTotal: d.previousTotal,
    change: d.change,
    uniqueVisitors: stats.uniqueVisitors,
    daily: stats.daily,
    hourly: stats.hourly,
    heatmap: d.heatmap,
    countries: stats.countries,
    browsers: stats.browsers,
    operatingSystems: stats.operatingSystems,
    referrers: stats.referrers,
    trackers: stats.trackers,
    deviceTypes: stats.deviceTypes,
    regions: stats.regions,
    cities: stats.cities,
    utm: d.utm,
    topLinks: d.topLinks,
    link,
    chosenLinks: d.chosenLinks,
    comparison: d.comparison && { ...d.comparison, until: d.comparison.until?.toISOString() ?? null },
  };
}

const PANELS = [
  'daily',
  'hourly',
  'heatmap',
  ...BREAKDOWNS,
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'topLinks',
  'revenue',
] as const;
type Panel = (typeof PANELS)[number];

/** One panel of a dashboard as CSV: its header and rows, as the JSON answer has them (with the comparison's columns when asked). */
function panelCsv(d: z.infer<typeof dashboardSchema>, panel: Exclude<Panel, 'revenue'>): string {
  const compare = d.comparison !== null;
  const c = csvComparison(compare, 'Clicks');
  const top = (items: z.infer<typeof comparedItem>[]) =>
    toCsv(
      ['name', 'clicks', 'percentage', ...c.head],
      items.map((i) => [i.name, i.count, i.percentage, ...c.cells(i.compared)]),
    );
  switch (panel) {
    case 'daily': {
      const before = d.comparison?.daily ?? [];
      return toCsv(
        [
          `date (${d.meta.timeZone})`,
          'clicks',
          'visitors',
          ...(compare ? ['previousDate', 'previousClicks', 'previousVisitors', 'change', 'trend'] : []),
        ],
        d.daily.map((r, i) => {
          const twin = before[i];
          const figure = twin && compareFigure(r.count, twin.count);
          return [
            r.date,
            r.count,
            r.visitors,
            ...(compare
              ? [twin?.date ?? '', twin?.count ?? '', twin?.visitors ?? '', figure?.change ?? '', figure?.trend ?? '']
              : []),
          ];
        }),
      );
    }
    case 'hourly': {
      const before = d.comparison?.hourly ?? [];
      return toCsv(
        [`hour (${d.meta.timeZone})`, 'clicks', ...c.head],
        d.hourly.map((r, i) => {
          const twin = before[i];
          return [r.hour, r.count, ...c.cells(twin && compareFigure(r.count, twin.count))];
        }),
      );
    }
    case 'heatmap': {
      const cell = new Map(d.heatmap.map((c) => [`${c.weekday} ${c.hour}`, c.count]));
      const rows = [1, 2, 3, 4, 5, 6, 7].map((weekday) => [
        weekday,
        ...HOUR_LABELS.map((_, hour) => cell.get(`${weekday} ${hour}`) ?? 0),
      ]);
      return toCsv([`weekday (1 = Monday, ${d.meta.timeZone})`, ...HOUR_LABELS], rows);
    }
    case 'utmSource':
      return top(d.utm.source);
    case 'utmMedium':
      return top(d.utm.medium);
    case 'utmCampaign':
      return top(d.utm.campaign);
    case 'topLinks':
      return toCsv(
        ['type', 'id', 'label', 'address', 'clicks', 'percentage', ...c.head],
        d.topLinks.map((l) => [l.type, l.id, l.label, l.address, l.count, l.percentage, ...c.cells(l.compared)]),
      );
    default:
      return top(d[panel]);
  }
}

const APP_PANELS = [
  'dailyInstalls',
  'countries',
  'matchTypes',
  'recentInstalls',
  'dailyReengagements',
  'funnel',
  'failureReasons',
  'revenue',
] as const;

/** Revenue as CSV: per day in the main currency, then per currency (never summed across them). */
function revenueCsv(r: RevenueStats, timeZone: string): string {
  return (
    fieldsCsv(
      [[`date (${timeZone})`, 'date'], [`revenue (${r.currency ?? 'none'})`, 'revenue'], 'purchases'],
      r.dailyRevenue,
    ) + fieldsCsv(['currency', 'totalRevenue', 'purchases'], r.byCurrency)
  );
}

const revenueSchema = z.object({
  available: z.boolean().describe('false without the revenue-analytics add-on: every figure is then empty'),
  currency: z.string().nullable(),
  totalRevenue: z.number(),
  purchases: z.number().int(),
  averageOrderValue: z.number(),
  purchaseConversionRate: z.number(),
  dailyRevenue: z.array(z.object({ date: z.string(), revenue: z.number(), purchases: z.number().int() })),
  byCurrency: z.array(z.object({ currency: z.string(), totalRevenue: z.number(), purchases: z.number().int() })),
});

/**
 * One panel of an app's install statistics as CSV, as the Service API's answer has it; with the
 * comparison (compare=previous), the daily installs, countries and sources add the previous
 * period's columns (previousDate for the days, previousInstalls, change, trend).
 */
function appPanelCsv(
  s: Awaited<ReturnType<InstallStatsService['forMobileApp']>>['stats'],
  timeZone: string,
  panel: Exclude<(typeof APP_PANELS)[number], 'revenue'>,
  comparison: z.infer<typeof appComparisonSchema> | null,
): string {
  const c = csvComparison(comparison !== null, 'Installs');
  switch (panel) {
    case 'dailyInstalls':
      return fieldsCsv(
        [[`date (${timeZone})`, 'date'], 'installs', ['iOS', 'iosInstalls'], ['Android', 'androidInstalls']],
        s.dailyInstalls,
        c.days(s.dailyInstalls, comparison?.dailyInstalls ?? [], (t) => t.installs),
      );
    case 'countries':
      return fieldsCsv(['country', 'installs', 'percentage'], s.countryStats, c.rows(comparison?.countryStats));
    case 'matchTypes':
      return fieldsCsv(
        ['matchType', 'installs', 'percentage'],
        s.installsByMatchType,
        c.rows(comparison?.installsByMatchType),
      );
    case 'dailyReengagements':
      return fieldsCsv([[`date (${timeZone})`, 'date'], 'reengagements', 'successful'], s.dailyReengagements);
    case 'recentInstalls':
      return toCsv(
        ['installedAt', 'platform', 'country', 'matchType', 'confidence', 'linkType', 'linkId'],
        s.recentInstalls.map((r) => [
          r.installedAt,
          r.platform,
          r.country,
          r.matchType,
          r.confidence,
          r.linkType ?? '',
          r.linkId ?? '',
        ]),
      );
    case 'funnel':
      return fieldsCsv(
        [
          ['stage', 'stageName'],
          ['order', 'stageOrder'],
          'sessionsReached',
          'conversionRateFromFirstStage',
          'conversionRateFromPreviousStage',
        ],
        s.funnelStats.stages,
      );
    case 'failureReasons':
      return fieldsCsv([['reason', 'name'], 'count', 'percentage'], s.qualityStats.failureReasons);
  }
}

export const consoleDashboardRoutes: FastifyPluginAsyncZod<{
  accounts: AccountServices;
  dashboards: Dashboards;
  installs: InstallStatsService;
  links: LinkStatsService;
  tagStats: TagStatsService;
}> = async (app, { accounts, dashboards, installs, links, tagStats }) => {
  const acting = actingMember(accounts);
  const linkParams = orgParams.extend({ kind: z.enum(['urls', 'campaigns']), id: idSchema });
  const dashboardQuery = z.object({ ...periodQuery, ...dashboardFilterQuery, compare: compareQuery });
  const exportQuery = z.object({
    ...periodQuery,
    ...dashboardFilterQuery,
    compare: compareQuery.describe(
      "previous: add the previous period's columns to a compared panel (previousClicks, change, trend; daily also previousDate and previousVisitors); default off",
    ),
    panel: z.enum(PANELS),
    link: z
      .string()
      .regex(/^(url|campaign):[1-9][0-9]{0,15}$/, 'must be url:<id> or campaign:<id>')
      .optional(),
  });

  async function find(
    orgId: number,
    request: FastifyRequest,
    input: DashboardInput,
    link?: { type: 'url' | 'campaign'; id: number },
  ) {
    const { caller } = await acting(request, orgId);
    if (!link) return toJson(await withPeriodQuery(dashboards.overview(caller, input)), null);
    const found = await withPeriodQuery(dashboards.link(caller, link.type, link.id, input));
    return toJson(found, found.link);
  }

  app.get(
    '/organizations/:orgId/dashboard',
    {
      schema: {
        tags,
        security,
        summary: "The organization's click dashboard over a period in a time zone",
        params: orgParams,
        querystring: dashboardQuery,
        response: { 200: dashboardSchema, ...errors },
      },
    },
    async (request) => find(request.params.orgId, request, request.query),
  );

  app.get(
    '/organizations/:orgId/dashboard/:kind/:id',
    {
      schema: {
        tags,
        security,
        summary: "One short URL's or campaign's click dashboard",
        params: linkParams,
        querystring: dashboardQuery,
        response: { 200: dashboardSchema, ...errors },
      },
    },
    async (request) =>
      find(request.params.orgId, request, request.query, {
        type: request.params.kind === 'urls' ? 'url' : 'campaign',
        id: request.params.id,
      }),
  );

  app.get(
    '/organizations/:orgId/dashboard/tags',
    {
      schema: {
        tags,
        security,
        summary:
          "Clicks and visitors per tag of the organization over a period: every tag, by the tags its links carry now (a link's click counts for each of its tags)",
        params: orgParams,
        querystring: z.object({ ...periodQuery, ...dashboardFilterQuery, compare: compareQuery }),
        response: { 200: tagClicksSchema, ...errors },
      },
    },
    async (request) => {
      const { caller } = await acting(request, request.params.orgId);
      const found = await withPeriodQuery(tagStats.byTag(caller, request.query));
      return {
        meta: { ...meta(found.period), filters: found.filters },
        tags: found.tags,
        comparison: found.comparison && comparisonPeriodJson(found.comparison),
      };
    },
  );

  app.get(
    '/organizations/:orgId/dashboard/export.csv',
    {
      schema: {
        tags,
        security,
        summary:
          'One panel of a dashboard (the organization, or link=url:<id> / campaign:<id>) as CSV, from the same query',
        params: orgParams,
        querystring: exportQuery,
        produces: ['text/csv'],
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const { panel, link, ...input } = request.query;
      const { startDate, endDate, timeZone } = input;
      const period = { startDate, endDate, timeZone };
      const [type, id] = link ? (link.split(':') as ['url' | 'campaign', string]) : [];
      if (panel === 'revenue') {
        // A campaign's revenue: the Service API's campaign statistics, per day in the main currency and per currency.
        if (type !== 'campaign') throw invalidField('link', "the revenue panel is a campaign's: link=campaign:<id>");
        const { caller } = await acting(request, request.params.orgId);
        const found = await withPeriodQuery(links.forCampaign(caller, Number(id), period));
        return sendCsv(
          reply,
          `campaign-${id}-revenue-${periodSpan(found.period, '-')}.csv`,
          revenueCsv(found.revenue, found.period.timeZone),
        );
      }
      const dashboard = await find(request.params.orgId, request, input, type ? { type, id: Number(id) } : undefined);
      const name = `${link ? link.replace(':', '-') : 'organization'}-${panel}-${periodSpan(dashboard.meta, '-')}.csv`;
      return sendCsv(reply, name, panelCsv(dashboard, panel));
    },
  );

  app.get(
    '/organizations/:orgId/dashboard/apps/:id',
    {
      schema: {
        tags,
        security,
        summary:
          "A mobile app's install statistics (the Service API's), with the previous period's when compare=previous",
        params: orgParams.extend({ id: idSchema }),
        querystring: installQuery.extend({ compare: compareQuery }),
        response: {
          200: installStatsSchema.extend({
            comparison: appComparisonSchema
              .nullable()
              .describe('the previous period beside this one when compare=previous was asked; null otherwise'),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { caller } = await acting(request, request.params.orgId);
      const found = await withPeriodQuery(installs.forMobileApp(caller, request.params.id, request.query));
      return { ...installStatsJson(found), comparison: found.previous && appComparison(found.stats, found.previous) };
    },
  );

  app.get(
    '/organizations/:orgId/dashboard/apps/:id/export.csv',
    {
      schema: {
        tags,
        security,
        summary: "One panel of a mobile app's install statistics as CSV, from the Service API's own query",
        params: orgParams.extend({ id: idSchema }),
        querystring: installQuery.extend({
          panel: z.enum(APP_PANELS),
          compare: compareQuery.describe(
            "previous: add the previous period's columns to dailyInstalls, countries and matchTypes (previousInstalls, change, trend; the days also previousDate); default off",
          ),
        }),
        produces: ['text/csv'],
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const { caller } = await acting(request, request.params.orgId);
      const { panel, ...query } = request.query;
      if (panel === 'revenue') {
        const { platform: _all, compare: _compare, ...period } = query;
        const found = await withPeriodQuery(installs.revenueOfApp(caller, request.params.id, period));
        return sendCsv(
          reply,
          `app-${request.params.id}-revenue-${periodSpan(found.period, '-')}.csv`,
          revenueCsv(found.revenue, found.period.timeZone),
        );
      }
      const found = await withPeriodQuery(installs.forMobileApp(caller, request.params.id, query));
      const name = `app-${request.params.id}-${panel}-${periodSpan(found.period, '-')}.csv`;
      const comparison = found.previous && appComparison(found.stats, found.previous);
      return sendCsv(reply, name, appPanelCsv(found.stats, found.period.timeZone, panel, comparison));
    },
  );

  app.get(
    '/organizations/:orgId/dashboard/apps/:id/revenue',
    {
      schema: {
        tags,
        security,
        summary: 'The purchases recorded under a mobile app, per currency (the revenue-analytics add-on)',
        params: orgParams.extend({ id: idSchema }),
        querystring: z.object(periodQuery),
        response: { 200: z.object({ revenueStats: revenueSchema, meta: statsMetaSchema }), ...errors },
      },
    },
    async (request) => {
      const { caller } = await acting(request, request.params.orgId);
      const found = await withPeriodQuery(installs.revenueOfApp(caller, request.params.id, request.query));
      return { revenueStats: found.revenue, meta: meta(found.period) };
    },
  );
};
