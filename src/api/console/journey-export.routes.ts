// The console's user-journey dashboard: the journey API's dashboard with the previous period's
// summary and days beside it (compare=previous), and one panel of it as CSV, from the same query.
// Served inside the console's organization API, which admits the member and applies the journey
// add-on rule.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { compareFigure } from '../../core/stats/comparison.js';
import type { JourneyStatsService } from '../../core/stats/journey-stats.js';
import { journeyDashboardSchema } from '../journey/stats.routes.js';
import {
  compareQuery,
  comparedRowsSchema,
  comparisonPeriodJson,
  comparisonPeriodSchema,
  figureChangeSchema,
  csvComparison,
} from '../schemas/stats-comparison.js';
import { callerOf } from '../request-caller.js';
import { fieldsCsv, sendCsv } from '../csv-download.js';
import { errorBodySchema } from '../schemas/common.js';
import { meta, periodQuery, periodSpan, withPeriodQuery } from '../schemas/stats-period.js';

const journeyComparisonSchema = comparisonPeriodSchema.extend({
  totalSessions: figureChangeSchema.nullable(),
  uniqueUsers: figureChangeSchema.nullable(),
  totalTransitions: figureChangeSchema.nullable(),
  goalCompletions: figureChangeSchema.nullable(),
  daily: journeyDashboardSchema.shape.daily.describe(
    "the previous period's days: the n-th lines up with the period's n-th day",
  ),
  platforms: comparedRowsSchema.describe(
    'each row of platforms, in its order, against its sessions in the previous period; empty when not comparable',
  ),
  topUtmSources: comparedRowsSchema.describe(
    'each row of topUtmSources, in its order, against its sessions in the previous period',
  ),
});

/** The journey's headline figures against the previous period's. */
function journeyComparison(
  current: Pick<Dashboard, 'summary'>,
  previous: NonNullable<Dashboard['previous']>,
): z.infer<typeof journeyComparisonSchema> {
  const before = previous.summary;
  const figure = (key: 'totalSessions' | 'uniqueUsers' | 'totalTransitions' | 'goalCompletions') =>
    before ? compareFigure(current.summary[key], before[key]) : null;
  return {
    ...comparisonPeriodJson(previous.comparison),
    totalSessions: figure('totalSessions'),
    uniqueUsers: figure('uniqueUsers'),
    totalTransitions: figure('totalTransitions'),
    goalCompletions: figure('goalCompletions'),
    daily: previous.daily,
    platforms: previous.platforms,
    topUtmSources: previous.topUtmSources,
  };
}

const PANELS = ['daily', 'platforms', 'utmSources', 'transitions', 'funnel', 'eventTypes', 'goalTypes'] as const;
type Dashboard = Awaited<ReturnType<JourneyStatsService['dashboard']>>;

/**
 * One panel as CSV; with the comparison (compare=previous), the days, platforms and UTM sources add
 * the previous period's sessions columns (previousDate for the days, previousSessions, change, trend).
 */
function panelCsv(
  d: Dashboard,
  panel: (typeof PANELS)[number],
  comparison: z.infer<typeof journeyComparisonSchema> | null,
): string {
  const c = csvComparison(comparison !== null, 'Sessions');
  switch (panel) {
    case 'daily':
      return fieldsCsv(
        [
          [`date (${d.period.timeZone})`, 'date'],
          'sessions',
          'uniqueUsers',
          'events',
          'transitions',
          'goalCompletions',
        ],
        d.daily,
        c.days(d.daily, comparison?.daily ?? [], (t) => t.sessions),
      );
    case 'platforms':
      return fieldsCsv(
        ['platform', 'sessions', 'percentage', 'uniqueUsers', 'convertedSessions', 'conversionRate'],
        d.platforms,
        c.rows(comparison?.platforms),
      );
    case 'utmSources':
      return fieldsCsv(
        ['utmSource', 'sessions', 'percentage', 'convertedSessions', 'conversionRate'],
        d.topUtmSources,
        c.rows(comparison?.topUtmSources),
      );
    case 'transitions':
      return fieldsCsv(['fromPlatform', 'toPlatform', 'count', 'percentage'], d.transitions.paths);
    case 'funnel':
      return fieldsCsv(
        [['stage', 'stageName'], ['order', 'stageOrder'], 'sessionsReached', 'conversionRate', 'percentageOfSessions'],
        d.funnel.stages,
      );
    case 'eventTypes':
      return fieldsCsv(['eventType', 'count'], d.topEventTypes);
    case 'goalTypes':
      return fieldsCsv(['goalType', 'count', 'value'], d.topGoalTypes);
  }
}

export const consoleJourneyExportRoutes: FastifyPluginAsyncZod<{ stats: JourneyStatsService }> = async (
  app,
  { stats },
) => {
  app.get(
    '/dashboard',
    {
      config: { journeyAccess: 'stats' },
      schema: {
        tags: ['console'],
        summary: "The user-journey dashboard, with the previous period's figures when compare=previous",
        querystring: z.object({ ...periodQuery, compare: compareQuery }),
        response: {
          200: journeyDashboardSchema.extend({
            comparison: journeyComparisonSchema.nullable().describe('null unless compare=previous'),
          }),
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request) => {
      const { period, previous, ...dashboard } = await withPeriodQuery(
        stats.dashboard(callerOf(request), request.query),
      );
      return { ...dashboard, meta: meta(period), comparison: previous && journeyComparison(dashboard, previous) };
    },
  );

  app.get(
    '/export.csv',
    {
      config: { journeyAccess: 'stats' },
      schema: {
        tags: ['console'],
        summary: 'One panel of the user-journey dashboard as CSV',
        querystring: z.object({
          ...periodQuery,
          panel: z.enum(PANELS),
          compare: compareQuery.describe(
            "previous: add the previous period's sessions columns to daily, platforms and utmSources (previousSessions, change, trend; the days also previousDate); default off",
          ),
        }),
        produces: ['text/csv'],
        response: {
          200: z.string(),
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { panel, ...input } = request.query;
      const dashboard = await withPeriodQuery(stats.dashboard(callerOf(request), input));
      const name = `journey-${panel}-${periodSpan(dashboard.period, '-')}.csv`;
      const comparison = dashboard.previous && journeyComparison(dashboard, dashboard.previous);
      return sendCsv(reply, name, panelCsv(dashboard, panel, comparison));
    },
  );
};
