// Click statistics of one short URL or campaign over a period: the link must be the caller's, the
// period is clamped to the plan's retention, and revenue figures need the revenue-analytics add-on
// (without it they stay empty rather than refusing the whole answer).
import type { Caller } from '../caller.js';
import type { ClickStats, ClickStatsQueries, LinkClickStats } from '../../olap/click-stats.queries.js';
import { percent } from '../../olap/percent.js';
import type { DestinationConversions } from '../../olap/destination-conversions.queries.js';
import { money, type RevenueStats, type RevenueStatsQueries } from '../../olap/revenue-stats.queries.js';
import type { Campaign } from '../../oltp/campaigns.repo.js';
import type { ShortUrl } from '../../oltp/short-urls.repo.js';
import { type ClickFilterInput, type ClickFilters, parseClickFilters } from './click-filters.js';
import type { GeoFields } from '../routing/geo-conditions.js';
import { ownCampaign, ownShortUrl, type StatsLinks } from './own-links.js';
import { periodForPlan, type PeriodInput, type StatsPeriod } from './period.js';

export type { ClickStats, RevenueStats };

/** Clicks of the period per destination they were sent to, with their share and what they led to. */
export interface DestinationStat {
  url: string;
  count: number;
  /** Percent of the period's clicks, one decimal. */
  percentage: number;
  /** Clicks sent here that led to at least one goal or install (tied by their deep-link token). */
  conversions: number;
  /** conversions per click sent here, percent with one decimal. */
  conversionRate: number;
  installs: number;
  goals: { goalType: string; count: number }[];
  /** Purchases by currency; empty without the revenue-analytics add-on. */
  revenue: { currency: string; amount: number; purchases: number }[];
}

/** A link's statistics with destinationStats (contract: "Routing rules and A/B tests"). */
export type LinkStats = ClickStats & { destinationStats: DestinationStat[] };

/**
 * Clicks per destination, most first: clicks recorded without one (before routing existed, or on a
 * link with neither rules nor variants) went to the link's originalUrl, and count there; so do
 * their conversions. Revenue shows only with the revenue-analytics add-on, as elsewhere.
 */
function destinationStatsOf(stats: LinkClickStats, originalUrl: string, withRevenue: boolean): LinkStats {
  const { destinations, conversions, ...rest } = stats;
  const urlOf = (url: string) => (url === '' ? originalUrl : url);
  const byUrl = new Map<string, number>();
  for (const d of destinations) byUrl.set(urlOf(d.url), (byUrl.get(urlOf(d.url)) ?? 0) + d.count);
  const converted = new Map<string, DestinationConversions>();
  for (const c of conversions) {
    const url = urlOf(c.url);
    const seen = converted.get(url);
    converted.set(url, seen ? mergeConversions(seen, c) : { ...c, url });
  }
  const destinationStats = [...byUrl]
    .map(([url, count]) => {
      const c = converted.get(url);
      const conversions = c?.conversions ?? 0;
      return {
        url,
        count,
        percentage: percent(count, stats.total),
        conversions,
        conversionRate: percent(conversions, count),
        installs: c?.installs ?? 0,
        goals: c?.goals ?? [],
        revenue: withRevenue ? (c?.revenue ?? []) : [],
      };
    })
    .sort((a, b) => b.count - a.count || a.url.localeCompare(b.url));
  return { ...rest, destinationStats };
}

/** Two destinations' conversions as one: a link's originalUrl reached as '' and by its own address. */
function mergeConversions(a: DestinationConversions, b: DestinationConversions): DestinationConversions {
  const goals = new Map(a.goals.map((g) => [g.goalType, g.count]));
  for (const g of b.goals) goals.set(g.goalType, (goals.get(g.goalType) ?? 0) + g.count);
  const revenue = new Map(a.revenue.map((r) => [r.currency, { ...r }]));
  for (const r of b.revenue) {
    const seen = revenue.get(r.currency);
    if (seen) {
      seen.amount = money(seen.amount + r.amount);
      seen.purchases += r.purchases;
    } else revenue.set(r.currency, { ...r });
  }
  return {
    url: a.url,
    conversions: a.conversions + b.conversions,
    installs: a.installs + b.installs,
    goals: [...goals]
      .map(([goalType, count]) => ({ goalType, count }))
      .sort((x, y) => y.count - x.count || x.goalType.localeCompare(y.goalType)),
    revenue: [...revenue.values()].sort((x, y) => y.purchases - x.purchases || x.currency.localeCompare(y.currency)),
  };
}

export type StatsCaller = Pick<Caller, 'organization'>;

/** What a link's statistics are asked for: the period and any filters (click-filters.ts). */
export type LinkStatsInput = PeriodInput & ClickFilterInput;

/** The period and filters of a request, checked. */
function periodAndFilters(organization: StatsCaller['organization'], input: LinkStatsInput, now: Date, geo: GeoFields) {
  const { startDate, endDate, timeZone, ...filterInput } = input;
  const filters = parseClickFilters(filterInput, geo);
  return { period: periodForPlan(organization.plan, { startDate, endDate, timeZone }, now), filters };
}

export interface LinkStatsDeps extends StatsLinks {
  clickStats: ClickStatsQueries;
  revenueStats: RevenueStatsQueries;
  /** What the GeoIP database knows beyond the country: region and city filters need it. */
  geoFields: GeoFields;
  clock: () => Date;
}

/** What both kinds' statistics answer: the clicks, and the period, filters and geo fields they were read with. */
export interface LinkStatsAnswer {
  stats: LinkStats;
  period: StatsPeriod;
  filters: ClickFilters;
  geo: GeoFields;
}

export function createLinkStatsService(deps: LinkStatsDeps) {
  /**
   * The link's clicks over the request's period (clamped to the plan) and filters; with
   * `linkTotal`, its clicks of all time too, read by the same query.
   */
  async function clickStatsOf(
    organization: StatsCaller['organization'],
    linkType: 'url' | 'campaign',
    link: { id: number; originalUrl: string },
    input: LinkStatsInput,
    also: { customId?: string | undefined; linkTotal?: boolean } = {},
  ): Promise<LinkStatsAnswer & { linkTotal?: number }> {
    const { period, filters } = periodAndFilters(organization, input, deps.clock(), deps.geoFields);
    const { linkTotal, ...stats } = await deps.clickStats.forLink({
      organizationId: organization.id,
      linkType,
      linkId: link.id,
      period,
      filters: filters.match,
      ...also,
    });
    return {
      stats: destinationStatsOf(stats, link.originalUrl, organization.revenueAnalytics),
      period,
      filters: filters.applied,
      geo: deps.geoFields,
      ...(linkTotal === undefined ? {} : { linkTotal }),
    };
  }

  return {
    async forShortUrl(
      caller: StatsCaller,
      id: number,
      input: LinkStatsInput,
    ): Promise<LinkStatsAnswer & { url: ShortUrl; clickCount: number }> {
      const { organization } = caller;
      const url = await ownShortUrl(deps, organization.id, id);
      const { linkTotal, ...answer } = await clickStatsOf(organization, 'url', url, input, { linkTotal: true });
      return { url, clickCount: linkTotal ?? 0, ...answer };
    },

    async forCampaign(
      caller: StatsCaller,
      id: number,
      input: LinkStatsInput & { customId?: string | undefined },
    ): Promise<LinkStatsAnswer & { campaign: Campaign; revenue: RevenueStats & { available: boolean } }> {
      const { organization } = caller;
      const campaign = await ownCampaign(deps, organization.id, id);
      const { customId, ...rest } = input;
      const answer = await clickStatsOf(organization, 'campaign', campaign, rest, { customId });
      const { period } = answer;
      // Revenue analysis is an add-on; without it the figures stay empty.
      const revenue = organization.revenueAnalytics
        ? {
            available: true,
            ...(await deps.revenueStats.forLink({
              organizationId: organization.id,
              linkType: 'campaign',
              linkId: campaign.id,
              period,
              clicks: answer.stats.total,
            })),
          }
        : { available: false, ...emptyRevenue(period.days) };
      return { campaign, revenue, ...answer };
    },
  };
}

export type LinkStatsService = ReturnType<typeof createLinkStatsService>;

/** Revenue figures of a period with none: what the answer holds without the add-on. */
export function emptyRevenue(days: string[]): RevenueStats {
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
