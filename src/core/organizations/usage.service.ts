// A caller's Service API usage this UTC month: the calls written to PostgreSQL plus those the
// meter holds and has not flushed yet, so the figure includes the call asking for it.
import { utcMonthStart } from '../../shared/time.js';
import type { Organization } from '../../oltp/organizations.repo.js';
import type { UsageMeter } from '../../oltp/usage-meter.js';
import type { UsageRepo } from '../../oltp/usage.repo.js';

export interface MonthlyUsage {
  organization: Organization;
  /** First day of the UTC month, YYYY-MM-DD. */
  month: string;
  callsThisMonth: number;
  remaining: number;
}

export function createUsageService(deps: { usage: UsageRepo; usageMeter: UsageMeter; clock: () => Date }) {
  return {
    async thisMonth(organization: Organization): Promise<MonthlyUsage> {
      const now = deps.clock();
      const month = utcMonthStart(now);
      const flushed = await deps.usage.callsInMonth(organization.id, month);
      const calls = flushed + deps.usageMeter.pending(organization.id, now);
      return { organization, month, callsThisMonth: calls, remaining: Math.max(0, organization.monthlyQuota - calls) };
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
