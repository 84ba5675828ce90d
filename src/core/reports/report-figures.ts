// What a report says: the period's clicks and visitors with their change against the previous
// period, clicks per day of both, the busiest links, countries and devices. The figures are the
// console's dashboards' (src/core/stats/dashboards.ts), asked for with the subscriber as the caller,
// so their role, the plan's retention and the organization's bounds apply as on the dashboard.
import type { ReportScope } from '../../oltp/report-subscriptions.repo.js';
import type { TopItem } from '../../olap/click-stats.queries.js';
import type { Caller } from '../caller.js';
import type { Dashboard, DashboardLink, Dashboards } from '../stats/dashboards.js';
import { percentChange } from '../stats/comparison.js';
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
const figuresOf = (d: Dashboard): PeriodFigures => ({
  total: d.stats.total,
  visitors: d.stats.uniqueVisitors,
  daily: d.stats.daily.map(({ date, count }) => ({ date, count })),
  countries: d.stats.countries.slice(0, TOP),
  devices: d.stats.deviceTypes.slice(0, TOP),
  topLinks: d.topLinks.slice(0, TOP),
});

/** Sums items of the same name, most first; shares of `total`. */
/**
 * A tag's figures: each of its links' dashboard, added up. The dashboards have no tag scope yet;
 * when the core has one, this function is what it replaces.
 */
export async function collectReportFigures(
  deps: {
    dashboards: Dashboards;
    /** The tag's name, as the dashboards' `tag` filter takes it; undefined once the tag is gone. */
    tagName: (organizationId: number, tagId: number) => Promise<string | undefined>;
  },
  caller: ReportCaller,
  scope: ReportScope,
  periods: { current: LocalRange; previous: LocalRange },
  timeZone: string,
): Promise<ReportFigures> {
  // A tag's report is the organization's dashboard filtered by the tag: distinct visitors across its
  // links counted once, its busiest links from the same read.
  const tag = scope.type === 'tag' ? await deps.tagName(caller.organization.id, scope.id) : undefined;
  // Deleting a tag deletes its subscriptions with it; a report of no tag would be the whole organization's.
  if (scope.type === 'tag' && tag === undefined) throw new Error(`tag ${scope.id} is gone`);
  const one = async (range: LocalRange): Promise<PeriodFigures> => {
    const input = { ...range, timeZone };
    if (scope.type === 'organization') return figuresOf(await deps.dashboards.overview(caller, input));
    if (scope.type === 'tag') return figuresOf(await deps.dashboards.overview(caller, { ...input, tag }));
    return figuresOf(await deps.dashboards.link(caller, scope.type, scope.id, input));
  };
  const [current, previous] = [await one(periods.current), await one(periods.previous)];
  return {
    current,
    previous,
    totalChange: percentChange(current.total, previous.total),
    visitorsChange: percentChange(current.visitors, previous.visitors),
  };
}
