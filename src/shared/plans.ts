// What each plan includes. Quotas and retention are our own choices, documented in the README;
// an organization's monthly_quota overrides the plan's.

export const PLANS = ['FREE', 'PRO', 'BUSINESS', 'ENTERPRISE'] as const;
export type Plan = (typeof PLANS)[number];

export interface PlanLimits {
  monthlyApiCalls: number;
  dataRetentionDays: number;
  qrCodes: boolean;
  /** Add-ons included in the price. */
  includesAddOns: boolean;
}

export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  FREE: { monthlyApiCalls: 10_000, dataRetentionDays: 30, qrCodes: false, includesAddOns: false },
  PRO: { monthlyApiCalls: 100_000, dataRetentionDays: 365, qrCodes: true, includesAddOns: false },
  BUSINESS: { monthlyApiCalls: 1_000_000, dataRetentionDays: 730, qrCodes: true, includesAddOns: false },
  ENTERPRISE: { monthlyApiCalls: 10_000_000, dataRetentionDays: 1825, qrCodes: true, includesAddOns: true },
};
