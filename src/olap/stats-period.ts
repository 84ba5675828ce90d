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
  actualStartDate: string;
  actualEndDate: string;
}
