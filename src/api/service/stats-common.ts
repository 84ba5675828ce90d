// What every Service API statistics endpoint shares: the period query (startDate, endDate,
// timeZone), its resolution against the plan's retention, the meta block and the top-list item.
import { z } from 'zod';
import { PLAN_LIMITS, type Plan } from '../../shared/plans.js';
import { resolvePeriod, type StatsPeriod } from '../../olap/stats-period.js';
import type { AppDeps } from '../deps.js';

export const topItem = z.object({ name: z.string(), count: z.number().int(), percentage: z.number().describe('percent of the period\'s clicks') }).meta({ id: 'TopItem' });
export const metaSchema = z
  .object({
    dataRetentionDays: z.number().int(),
    actualStartDate: z.string().describe('first local date covered, after retention clamping'),
    actualEndDate: z.string(),
    timeZone: z.string().describe('IANA zone the dates and hours are in (extension)'),
  })
  .meta({ id: 'StatsMeta' });

export const periodQuery = {
  startDate: z.string().optional().describe('YYYY-MM-DD, inclusive, local to timeZone; default 29 days before endDate'),
  endDate: z.string().optional().describe('YYYY-MM-DD, inclusive; default today'),
  timeZone: z.string().max(64).optional().describe('IANA zone name, default UTC (accepted on every statistics endpoint)'),
};

export const HOUR_LABELS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`);

export function meta(period: StatsPeriod) {
  return {
    dataRetentionDays: period.retentionDays,
    actualStartDate: period.actualStartDate,
    actualEndDate: period.actualEndDate,
    timeZone: period.timeZone,
  };
}

type PeriodParams = { startDate?: string | undefined; endDate?: string | undefined; timeZone?: string | undefined };

/** The period of a request, clamped to the organization's plan retention (400 on bad input). */
export const periodResolver = (deps: Pick<AppDeps, 'clock'>) => (plan: Plan, q: PeriodParams): StatsPeriod =>
  resolvePeriod({ ...q, retentionDays: PLAN_LIMITS[plan].dataRetentionDays, now: deps.clock() });
