// The period a statistics query covers, already resolved (src/core/stats/period.ts): inclusive
// local dates in one time zone, as one UTC range.

export interface StatsPeriod {
  timeZone: string;
  /** Every local date of the period, YYYY-MM-DD, in order (empty when retention leaves none). */
  days: string[];
  /** First instant of the first day and first instant after the last day, UTC. */
  utcStart: Date;
  utcEnd: Date;
  retentionDays: number;
  /** The local dates asked for (after defaults), before clipping. */
  requestedStartDate: string;
  requestedEndDate: string;
  /** The clipped range's first and last local dates; null when nothing of the request is left. */
  actualStartDate: string | null;
  actualEndDate: string | null;
  /** Why nothing is left: the whole range is older than the retention, or after today; null when something is. */
  empty: 'before_retention' | 'after_today' | null;
}

/** The query parameters of a period: {start:DateTime}, {end:DateTime} (Unix seconds) and {tz:String}. */
export const periodParams = (period: StatsPeriod) => ({
  start: period.utcStart.getTime() / 1000,
  end: period.utcEnd.getTime() / 1000,
  tz: period.timeZone,
});

/** One link of an organization over a period: what link statistics are about. */
export interface LinkPeriod {
  organizationId: number;
  linkType: 'url' | 'campaign';
  linkId: number;
  period: StatsPeriod;
}

/** The parameters of one link's statistics over a period: {org}, {type}, {id} and the period's. */
export const linkPeriodParams = (input: LinkPeriod) => ({
  org: input.organizationId,
  type: input.linkType,
  id: input.linkId,
  ...periodParams(input.period),
});
