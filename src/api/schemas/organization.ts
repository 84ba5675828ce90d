// Organization as the operator API shows it.
import { DateTime } from 'luxon';
import { z } from 'zod';
import type { Organization } from '../../core/caller.js';
import { PAGE_LANGUAGES } from '../../shared/language.js';
import { PLANS } from '../../shared/plans.js';

export const planSchema = z.enum(PLANS);

/** An IANA zone name the runtime knows (Asia/Seoul, America/New_York, UTC). */
export const timeZoneSchema = z
  .string()
  .trim()
  .max(64)
  .refine((zone) => DateTime.now().setZone(zone).isValid, 'must be an IANA time zone such as Asia/Seoul');

export const organizationSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    plan: planSchema,
    monthlyQuota: z.number().int().describe('Service API calls per UTC month in force'),
    monthlyQuotaOverride: z.number().int().nullable().describe("null: the plan's quota"),
    addOns: z.object({ userJourney: z.boolean(), revenueAnalytics: z.boolean() }),
    ipAllowlist: z.array(z.string()),
    defaultLanguage: z
      .enum(PAGE_LANGUAGES)
      .describe("visitor pages' language when the browser asks for none of ko, en, ja"),
    timeZone: z
      .string()
      .describe('IANA zone where a bare date ends (a link expiry given as YYYY-MM-DD); Asia/Seoul unless set'),
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
    defaultLanguage: o.defaultLanguage,
    timeZone: o.timeZone,
    createdAt: o.createdAt.toISOString(),
  };
}
