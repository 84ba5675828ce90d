// A click dashboard's state in the page's address, so that a copied address shows the same view,
// a reload keeps it and back and forward step through it: the period (`period`, and `from`/`to`
// for custom dates), the time zone (`timeZone`), the filters, each under the statistics API's
// own parameter name with its values comma-separated (`country=JP,KR&deviceType=mobile`), and the
// comparison with the previous period (`compare=previous`, the default, or `compare=off`). Links
// picked one by one (the Links list's "View statistics") are filters too: `url` and `campaign`, ids.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { StatsFilters } from '../api';
import { browserTimeZone, type PeriodChoice, type Preset } from './period';

/**
 * The statistics filters, the organization's tag names and links picked one by one (short URL and
 * campaign ids): the console's dashboards take those too.
 */
export type DashboardFilters = StatsFilters & { tag?: string[]; url?: string[]; campaign?: string[] };

export type FilterKey = keyof DashboardFilters;

/** Every filter the statistics take, in the order the chips show them. */
export const FILTER_KEYS = [
  'country',
  'deviceType',
  'os',
  'browser',
  'referrer',
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'region',
  'city',
  'tag',
  'url',
  'campaign',
] as const satisfies readonly FilterKey[];

export interface DashboardState {
  choice: PeriodChoice;
  filters: DashboardFilters;
  /** Every figure and time chart beside the previous period's. */
  compare: boolean;
}

const PRESETS: readonly Preset[] = ['today', '7d', '30d', '90d', 'month', 'custom'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The state an address's search part names; what it leaves out is the default (30 days, the browser's zone). */
export function readState(search: string): DashboardState {
  const params = new URLSearchParams(search);
  const period = params.get('period');
  const date = (name: string) => {
    const value = params.get(name) ?? '';
    return DATE.test(value) ? value : '';
  };
  const filters: DashboardFilters = {};
  for (const key of FILTER_KEYS) {
    const values = [...new Set((params.get(key) ?? '').split(',').map((v) => v.trim()))].filter(Boolean);
    if (values.length > 0) filters[key] = values;
  }
  return {
    choice: {
      preset: PRESETS.find((p) => p === period) ?? '30d',
      from: date('from'),
      to: date('to'),
      timeZone: params.get('timeZone') || browserTimeZone(),
    },
    filters,
    compare: params.get('compare') !== 'off',
  };
}

/** The filters as the statistics API's query parameters (the dashboard, its CSV, a panel's own figures). */
export function filterParams(filters: DashboardFilters): Record<string, string> {
  return Object.fromEntries(
    FILTER_KEYS.flatMap((key) => (filters[key]?.length ? [[key, filters[key].join(',')]] : [])),
  );
}

/** The search part of the address of a state, every part written out (a zone the reader's browser may not share). */
export function writeState({ choice, filters, compare }: DashboardState): string {
  const params = new URLSearchParams({ period: choice.preset });
  if (choice.preset === 'custom') {
    if (choice.from) params.set('from', choice.from);
    if (choice.to) params.set('to', choice.to);
  }
  params.set('timeZone', choice.timeZone);
  for (const [key, value] of Object.entries(filterParams(filters))) params.set(key, value);
  params.set('compare', compare ? 'previous' : 'off');
  return `?${params}`;
}

/** The dashboard's address for these links of the organization (a list's ticked short URLs or campaigns). */
export const linksDashboardSearch = (kind: 'url' | 'campaign', ids: number[]): string =>
  `?${new URLSearchParams({ [kind]: ids.join(',') })}`;

/** The filters with one value more (a click on a panel's row) or less (a chip removed). */
export function withFilter(filters: DashboardFilters, key: FilterKey, value: string): DashboardFilters {
  const values = filters[key] ?? [];
  return values.includes(value) ? filters : { ...filters, [key]: [...values, value] };
}

export function withoutFilter(filters: DashboardFilters, key: FilterKey, value: string): DashboardFilters {
  const { [key]: values = [], ...rest } = filters;
  const left = values.filter((v) => v !== value);
  return left.length > 0 ? { ...rest, [key]: left } : rest;
}

/**
 * The dashboard's state from the address of the page at `home` (its path), and a setter that
 * writes it there as a new history entry. An address without the state gets it written in place
 * (no new entry), so that it can be copied as it is.
 */
export function useDashboardState(home: string): [DashboardState, (next: DashboardState) => void] {
  const [search, setSearch] = useState(() => window.location.search);
  useEffect(() => {
    const onPop = () => setSearch(window.location.search);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  useEffect(() => {
    const { pathname } = window.location;
    if (pathname.replace(/\/+$/, '') !== home || new URLSearchParams(search).has('period')) return;
    const canonical = writeState(readState(search));
    window.history.replaceState(window.history.state, '', `${pathname}${canonical}`);
    setSearch(canonical);
  }, [home, search]);
  const update = useCallback((next: DashboardState) => {
    const written = writeState(next);
    window.history.pushState(window.history.state, '', `${window.location.pathname}${written}`);
    setSearch(written);
  }, []);
  return [useMemo(() => readState(search), [search]), update];
}
