// Organization as the operator API shows it.
import { z } from 'zod';
import type { Organization } from '../../oltp/organizations.repo.js';
import { PLANS } from '../../shared/plans.js';

export const planSchema = z.enum(PLANS);

export const organizationSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    plan: planSchema,
    monthlyQuota: z.number().int().describe('Service API calls per UTC month in force'),
    monthlyQuotaOverride: z.number().int().nullable().describe("null: the plan's quota"),
    addOns: z.object({ userJourney: z.boolean(), revenueAnalytics: z.boolean() }),
    ipAllowlist: z.array(z.string()),
    createdAt: z.string(),
  })
  .meta({ id: 'Organization' });

export function toOrganizationJson(o: Organization): z.infer<typeof organizationSchema> {
  return {
    id: o.id,
    name: o.name,
    plan: o.plan,
    monthlyQuota: o.monthlyQuota,
    monthlyQuotaOverride: o.monthlyQuotaOverride,
    addOns: { userJourney: o.userJourney, revenueAnalytics: o.revenueAnalytics },
    ipAllowlist: o.ipAllowlist,
    createdAt: o.createdAt.toISOString(),
  };
}
