// A caller's Service API usage this UTC month: the calls written to PostgreSQL plus those the
// meter holds and has not flushed yet, so the figure includes the call asking for it. The console
// reads the same figure with what the plan includes (statistics.read: every role).
import { nextUtcMonthStart, utcMonthStart } from '../../shared/time.js';
import { PLAN_LIMITS, type PlanLimits } from '../../shared/plans.js';
import type { Organization } from '../../oltp/organizations.repo.js';
import type { UsageMeter } from '../../oltp/usage-meter.js';
import type { UsageRepo } from '../../oltp/usage.repo.js';
import { authorize } from '../accounts/permissions.js';
import type { Caller } from '../caller.js';

export interface MonthlyUsage {
  organization: Organization;
  /** First day of the UTC month, YYYY-MM-DD. */
  month: string;
  callsThisMonth: number;
  remaining: number;
}

/** The month's usage with when the count starts again and what the organization's plan includes. */
export interface PlanUsage extends MonthlyUsage {
  /** Midnight UTC on the first day of the next month. */
  resetsAt: Date;
  limits: PlanLimits;
}

export function createUsageService(deps: { usage: UsageRepo; usageMeter: UsageMeter; clock: () => Date }) {
  async function usageAt(organization: Organization, now: Date): Promise<MonthlyUsage> {
    const month = utcMonthStart(now);
    const flushed = await deps.usage.callsInMonth(organization.id, month);
    const calls = flushed + deps.usageMeter.pending(organization.id, now);
    return { organization, month, callsThisMonth: calls, remaining: Math.max(0, organization.monthlyQuota - calls) };
  }

  return {
    thisMonth: (organization: Organization): Promise<MonthlyUsage> => usageAt(organization, deps.clock()),

    /** For a console member (any role may see it); the add-ons are the organization's flags. */
    async withPlan(caller: Pick<Caller, 'organization' | 'member'>): Promise<PlanUsage> {
      authorize(caller, 'statistics.read');
      const now = deps.clock();
      const usage = await usageAt(caller.organization, now);
      return { ...usage, resetsAt: nextUtcMonthStart(now), limits: PLAN_LIMITS[caller.organization.plan] };
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
