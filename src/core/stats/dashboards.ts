// The console's click dashboards: the organization's overview and one short URL's or campaign's
// page, over a period in the viewer's time zone (clamped to the plan's retention, as every
// statistic). What the panels show comes from one query (src/olap/click-dashboard.ts); here the
// busiest links get their names and addresses, and the previous period its change in percent:
// of the totals and, row by row, of every breakdown (read in the same round as the period).
import type { ClickDashboard, ClickDashboardQueries } from '../../olap/click-dashboard.queries.js';
import type { ClickStats, TopItem } from '../../olap/click-stats.queries.js';
import type { Campaign, CampaignsRepo } from '../../oltp/campaigns.repo.js';
import type { ShortUrl, ShortUrlsRepo } from '../../oltp/short-urls.repo.js';
import { authorize } from '../accounts/permissions.js';
import type { Caller } from '../caller.js';
import { linkAddress } from '../links/link-rules.js';
import { percent } from '../../olap/percent.js';
import type { GeoFields } from '../routing/geo-conditions.js';
import { type ClickFilterInput, type ClickFilters, parseClickFilters } from './click-filters.js';
import {
  type ComparisonPeriod,
  compareFigure,
  compareRows,
  type FigureChange,
  describeComparison,
  type NotComparable,
  percentChange,
  readWithPrevious,
} from './comparison.js';
import { type LinkSetApplied, type LinkSetInput, parseLinkSet } from './link-set.js';
import { ownCampaign, ownShortUrl } from './own-links.js';
import { periodForPlan, previousPeriod, type PeriodInput, type StatsPeriod } from './period.js';
import type { TagFilterInput, TagStatsService } from './tag-stats.js';

/**
 * What a dashboard is asked for: the period, any filters (click-filters.ts, tag names: tag-stats.ts,
 * links picked one by one: link-set.ts) and whether to compare with the previous period.
 */
export type DashboardInput = PeriodInput &
  ClickFilterInput &
  TagFilterInput &
  LinkSetInput & { compare?: 'previous' | 'off' | undefined };

/** The previous period's figures beside the period's (comparison.ts): same length, zone and filters. */
export interface DashboardComparison {
  /** The previous period's first and last local dates; null when the period is empty. */
  startDate: string | null;
  endDate: string | null;
  /** Where the previous period stops because the period runs through today; null when whole. */
  until: Date | null;
  comparable: boolean;
  reason: NotComparable | null;
  total: FigureChange | null;
  uniqueVisitors: FigureChange | null;
  /** The previous period's days, in order: the n-th lines up with the period's n-th day. */
  daily: ClickDashboard['stats']['daily'];
  hourly: ClickDashboard['stats']['hourly'];
  /**
   * One link's previous clicks per destination (its originalUrl for clicks recorded without one),
   * most first, for its destinations panel (read from the link's statistics) to compare with; empty
   * for the organization, or when not comparable.
   */
  destinations: { url: string; count: number }[];
}

type DashboardCaller = Pick<Caller, 'organization' | 'member'>;
export type LinkKind = 'url' | 'campaign';

/** A link as a dashboard names it: what people recognise, and its address. */
export interface DashboardLink {
  type: LinkKind;
  id: number;
  label: string;
  address: string;
}

/** The breakdowns of a dashboard: each a list of rows compared one by one with the previous period. */
export const BREAKDOWNS = [
  'countries',
  'browsers',
  'operatingSystems',
  'referrers',
  'trackers',
  'deviceTypes',
  'regions',
  'cities',
] as const;
type Breakdown = (typeof BREAKDOWNS)[number];
const UTM = ['source', 'medium', 'campaign'] as const;

/**
 * A breakdown's row with, when compared (compare=previous), its count in the previous period and
 * the change (null when the periods cannot be compared); without a comparison, no `compared`.
 */
export type ComparedRow<T> = T & { compared?: FigureChange | null };

export interface Dashboard extends Omit<ClickDashboard, 'stats' | 'utm'> {
  stats: Omit<ClickStats, Breakdown> & Record<Breakdown, ComparedRow<TopItem>[]>;
  utm: Record<(typeof UTM)[number], ComparedRow<TopItem>[]>;
  period: StatsPeriod;
  /** The filters applied, as given (trimmed, without repeats); {} without filters. */
  filters: ClickFilters & { tag?: string[] } & LinkSetApplied;
  /** The links `url` and `campaign` picked, as named; an id of no link of the organization is left out. */
  chosenLinks: DashboardLink[];
  /** Percent change of the total against the previous period; null when that had no clicks. */
  change: number | null;
  /** What the GeoIP database tells beyond the country: the region and city panels and filters. */
  geo: GeoFields;
  topLinks: ComparedRow<DashboardLink & { count: number; percentage: number }>[];
  /** The previous period's figures when asked for (compare=previous); null otherwise. */
  comparison: DashboardComparison | null;
}

export function createDashboards(deps: {
  clicks: ClickDashboardQueries;
  shortUrls: Pick<ShortUrlsRepo, 'get' | 'getMany'>;
  campaigns: Pick<CampaignsRepo, 'get' | 'getMany'>;
  tagStats: Pick<TagStatsService, 'tagFilter'>;
  publicBaseUrl: string;
  /** What the GeoIP database knows beyond the country: region and city filters need it. */
  geoFields: GeoFields;
  clock: () => Date;
}) {
  const urlLink = (u: ShortUrl): DashboardLink => ({
    type: 'url',
    id: u.id,
    label: u.title ?? u.shortCode,
    address: linkAddress(deps.publicBaseUrl, u.customDomainName, u.shortCode),
  });
  const campaignLink = (c: Campaign): DashboardLink => ({
    type: 'campaign',
    id: c.id,
    label: c.name,
    address: linkAddress(deps.publicBaseUrl, c.customDomainName, c.alias),
  });

  async function build(
    caller: DashboardCaller,
    link: (DashboardLink & { originalUrl: string }) | null,
    input: DashboardInput,
  ): Promise<Dashboard> {
    authorize(caller, 'statistics.read');
    const { organization } = caller;
    const { startDate, endDate, timeZone, tag, url, campaign, ...rest } = input;
    const { compare, ...filterInput } = rest;
    const filters = parseClickFilters(filterInput, deps.geoFields);
    const now = deps.clock();
    const period = periodForPlan(organization.plan, { startDate, endDate, timeZone }, now);
    const chosen = parseLinkSet({ url, campaign });
    const tags = await deps.tagStats.tagFilter(organization.id, tag);
    const scope = {
      organizationId: organization.id,
      link: link && { type: link.type, id: link.id },
      filters: { ...filters.match, ...tags.match },
      links: chosen.match,
    };
    // The previous period in full (every name of each breakdown): each row finds its count there.
    const { current: found, previous } = await readWithPrevious(period, now, compare === 'previous', (p) =>
      p === period
        ? deps.clicks.forScope(scope, period, previousPeriod(period))
        : deps.clicks.forScope(scope, p, undefined, true),
    );
    const { total } = found.stats;
    const before = previous && (previous.comparison.comparable ? previous.stats : null);
    /** Rows compared with the previous period's (`counts` of it), when asked; as they are otherwise. */
    const compared = <T extends { count: number }>(
      rows: T[],
      key: (row: T) => string,
      counts: (d: ClickDashboard) => Iterable<[string, number]>,
    ): ComparedRow<T>[] =>
      previous === null
        ? rows
        : before
          ? compareRows(rows, key, counts(before))
          : rows.map((r) => ({ ...r, compared: null }));
    /** A breakdown's rows by name against the same breakdown of the previous period. */
    const byName = (rows: TopItem[], of: (d: ClickDashboard) => TopItem[]) =>
      compared(
        rows,
        (i) => i.name,
        (d) => of(d).map((i): [string, number] => [i.name, i.count]),
      );
    const stats = { ...found.stats };
    for (const b of BREAKDOWNS) stats[b] = byName(found.stats[b], (d) => d.stats[b]);
    const utm = Object.fromEntries(UTM.map((u) => [u, byName(found.utm[u], (d) => d.utm[u])])) as Dashboard['utm'];
    const [busiest, chosenLinks] = await Promise.all([
      named(organization.id, found.links, total),
      chosen.match ? linksOf(organization.id, chosen.match) : [],
    ]);
    const topLinks = compared(
      busiest,
      (l) => `${l.type}:${l.id}`,
      (d) => d.links.map((l): [string, number] => [`${l.linkType}:${l.linkId}`, l.count]),
    );
    return {
      ...found,
      stats,
      utm,
      period,
      filters: { ...filters.applied, ...tags.applied, ...chosen.applied },
      chosenLinks,
      geo: deps.geoFields,
      change: percentChange(total, found.previousTotal),
      topLinks,
      comparison: previous && comparisonOf(found, previous.comparison, previous.stats, link?.originalUrl ?? ''),
    };
  }

  /** The comparison as a dashboard shows it: the previous period's dates, and its figures when comparable. */
  function comparisonOf(
    found: ClickDashboard,
    previous: ComparisonPeriod,
    before: ClickDashboard | null,
    originalUrl: string,
  ): DashboardComparison {
    const figures = previous.comparable && before;
    const destinations = new Map<string, number>();
    for (const d of figures ? figures.destinations : []) {
      const url = d.url === '' ? originalUrl : d.url;
      destinations.set(url, (destinations.get(url) ?? 0) + d.count);
    }
    return {
      ...describeComparison(previous),
      total: figures ? compareFigure(found.stats.total, figures.stats.total) : null,
      uniqueVisitors: figures ? compareFigure(found.stats.uniqueVisitors, figures.stats.uniqueVisitors) : null,
      daily: figures ? figures.stats.daily : [],
      hourly: figures ? figures.stats.hourly : [],
      destinations: [...destinations]
        .map(([url, count]) => ({ url, count }))
        .sort((a, b) => b.count - a.count || a.url.localeCompare(b.url)),
    };
  }

  /** The organization's short URLs and campaigns of these ids, named, in that order; unknown ids left out. */
  async function linksOf(organizationId: number, ids: Record<LinkKind, number[]>): Promise<DashboardLink[]> {
    const [urls, campaigns] = await Promise.all([
      deps.shortUrls.getMany(organizationId, ids.url),
      deps.campaigns.getMany(organizationId, ids.campaign),
    ]);
    const byId = <T extends { id: number }>(rows: T[], order: number[]) =>
      rows.sort((x, y) => order.indexOf(x.id) - order.indexOf(y.id));
    return [...byId(urls, ids.url).map(urlLink), ...byId(campaigns, ids.campaign).map(campaignLink)];
  }

  /** The busiest links with their names; a link deleted since keeps its clicks under its id. */
  async function named(organizationId: number, links: ClickDashboard['links'], total: number) {
    const ids = (type: LinkKind) => links.filter((l) => l.linkType === type).map((l) => l.linkId);
    const found = await linksOf(organizationId, { url: ids('url'), campaign: ids('campaign') });
    const known = new Map<string, DashboardLink>(found.map((l) => [`${l.type}:${l.id}`, l]));
    return links.map(({ linkType, linkId, count }) => ({
      ...(known.get(`${linkType}:${linkId}`) ?? { type: linkType, id: linkId, label: `#${linkId}`, address: '' }),
      count,
      percentage: percent(count, total),
    }));
  }

  return {
    /** Every link of the organization. */
    overview: (caller: DashboardCaller, input: DashboardInput) => build(caller, null, input),

    /** One short URL or campaign of the organization; another organization's is unknown (404). */
    async link(
      caller: DashboardCaller,
      type: LinkKind,
      id: number,
      input: DashboardInput,
    ): Promise<Dashboard & { link: DashboardLink }> {
      authorize(caller, 'statistics.read');
      const orgId = caller.organization.id;
      const found =
        type === 'url'
          ? await ownShortUrl(deps, orgId, id).then((u) => ({ link: urlLink(u), originalUrl: u.originalUrl }))
          : await ownCampaign(deps, orgId, id).then((c) => ({ link: campaignLink(c), originalUrl: c.originalUrl }));
      const { link } = found;
      return { ...(await build(caller, { ...link, originalUrl: found.originalUrl }, input)), link };
    },
  };
}

export type Dashboards = ReturnType<typeof createDashboards>;
