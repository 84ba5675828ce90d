// What a report says: the period's clicks and visitors with their change against the previous
// period, clicks per day of both, the busiest links, countries and devices. The figures are the
// console's dashboards' (src/core/stats/dashboards.ts), asked for with the subscriber as the caller,
// so their role, the plan's retention and the organization's bounds apply as on the dashboard.
import type { ReportScope } from '../../oltp/report-subscriptions.repo.js';
import type { TopItem } from '../../olap/click-stats.queries.js';
import type { Caller } from '../caller.js';
import type { Dashboard, DashboardLink, Dashboards } from '../stats/dashboards.js';
import type { LocalRange } from './report-period.js';

type ReportCaller = Pick<Caller, 'organization' | 'member'>;

export interface PeriodFigures {
  total: number;
  visitors: number;
  daily: { date: string; count: number }[];
  countries: TopItem[];
  devices: TopItem[];
  topLinks: (DashboardLink & { count: number })[];
}

export interface ReportFigures {
  current: PeriodFigures;
  previous: PeriodFigures;
  /** Percent change against the previous period; null when that had none. */
  totalChange: number | null;
  visitorsChange: number | null;
}

const TOP = 5;

/**
 * Percent change from `previous` to `current`, one decimal; null when there was nothing before.
 * The one place reports compute a change: the core's comparison helper can take its place.
 */
export function changePercent(current: number, previous: number): number | null {
  return previous === 0 ? null : Math.round(((current - previous) / previous) * 1000) / 10;
}

const figuresOf = (d: Dashboard): PeriodFigures => ({
  total: d.stats.total,
  visitors: d.stats.uniqueVisitors,
  daily: d.stats.daily.map(({ date, count }) => ({ date, count })),
  countries: d.stats.countries.slice(0, TOP),
  devices: d.stats.deviceTypes.slice(0, TOP),
  topLinks: d.topLinks.slice(0, TOP),
});

/** Sums items of the same name, most first; shares of `total`. */
function mergeTop(lists: TopItem[][], total: number): TopItem[] {
  const sums = new Map<string, number>();
  for (const item of lists.flat()) sums.set(item.name, (sums.get(item.name) ?? 0) + item.count);
  return [...sums]
    .map(([name, count]) => ({ name, count, percentage: total === 0 ? 0 : Math.round((count / total) * 1000) / 10 }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
    .slice(0, TOP);
}

/**
 * A tag's figures: each of its links' dashboard, added up. The dashboards have no tag scope yet;
 * when the core has one, this function is what it replaces.
 */
async function tagFigures(
  dashboards: Dashboards,
  caller: ReportCaller,
  links: { type: 'url' | 'campaign'; id: number }[],
  input: LocalRange & { timeZone: string },
): Promise<PeriodFigures> {
  const boards: (Dashboard & { link: DashboardLink })[] = [];
  // A few at a time: a tag of many links must not take every connection.
  for (let i = 0; i < links.length; i += 4) {
    const batch = links.slice(i, i + 4);
    boards.push(...(await Promise.all(batch.map((l) => dashboards.link(caller, l.type, l.id, input)))));
  }
  const total = boards.reduce((n, b) => n + b.stats.total, 0);
  const daily = new Map<string, number>();
  for (const b of boards) for (const d of b.stats.daily) daily.set(d.date, (daily.get(d.date) ?? 0) + d.count);
  return {
    total,
    visitors: boards.reduce((n, b) => n + b.stats.uniqueVisitors, 0),
    daily: [...daily].map(([date, count]) => ({ date, count })).sort((a, b) => a.date.localeCompare(b.date)),
    countries: mergeTop(
      boards.map((b) => b.stats.countries),
      total,
    ),
    devices: mergeTop(
      boards.map((b) => b.stats.deviceTypes),
      total,
    ),
    topLinks: boards
      .filter((b) => b.stats.total > 0)
      .map((b) => ({ ...b.link, count: b.stats.total }))
      .sort((a, b) => b.count - a.count || a.id - b.id)
      .slice(0, TOP),
  };
}

export async function collectReportFigures(
  deps: {
    dashboards: Dashboards;
    taggedLinks: (organizationId: number, tagId: number) => Promise<{ type: 'url' | 'campaign'; id: number }[]>;
  },
  caller: ReportCaller,
  scope: ReportScope,
  periods: { current: LocalRange; previous: LocalRange },
  timeZone: string,
): Promise<ReportFigures> {
  const tagged = scope.type === 'tag' ? await deps.taggedLinks(caller.organization.id, scope.id) : [];
  const one = async (range: LocalRange): Promise<PeriodFigures> => {
    const input = { ...range, timeZone };
    if (scope.type === 'organization') return figuresOf(await deps.dashboards.overview(caller, input));
    if (scope.type === 'tag') return tagFigures(deps.dashboards, caller, tagged, input);
    return figuresOf(await deps.dashboards.link(caller, scope.type, scope.id, input));
  };
  const [current, previous] = [await one(periods.current), await one(periods.previous)];
  return {
    current,
    previous,
    totalChange: changePercent(current.total, previous.total),
    visitorsChange: changePercent(current.visitors, previous.visitors),
  };
}
