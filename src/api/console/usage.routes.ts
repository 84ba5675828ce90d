// The console's plan and usage page: the organization's plan, its Service API calls this UTC month
// (the same figure as the Service API's GET /usage), its add-ons and what the plan includes.
// Inside the console API context; every role may read it (statistics.read).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountServices } from '../../core/accounts/index.js';
import type { UsageService } from '../../core/organizations/usage.service.js';
import { planSchema } from '../schemas/organization.js';
import { errors, orgParams, security, tags } from './route-docs.js';

const usageSchema = z.object({
  plan: planSchema,
  monthlyQuota: z
    .number()
    .int()
    .describe("Service API calls per UTC month in force (the operator's override, else the plan's)"),
  callsThisMonth: z.number().int(),
  remaining: z.number().int(),
  month: z.string().describe('the UTC month counted, YYYY-MM'),
  resetsAt: z.string().describe('ISO-8601: midnight UTC on the first day of the next month'),
  addOns: z
    .object({ userJourney: z.boolean(), revenueAnalytics: z.boolean() })
    .describe('in force (ENTERPRISE includes both)'),
  features: z.object({
    qrCodes: z.boolean(),
    dataRetentionDays: z.number().int().describe('how far back statistics reach'),
    addOnsIncluded: z.boolean().describe('the plan includes every add-on'),
  }),
});

export const consoleUsageRoutes: FastifyPluginAsyncZod<{ accounts: AccountServices; usage: UsageService }> = async (
  app,
  { accounts, usage },
) => {
  app.get(
    '/organizations/:orgId/usage',
    {
      schema: {
        tags,
        security,
        summary: 'Plan, Service API calls this UTC month against the quota, add-ons and what the plan includes',
        params: orgParams,
        response: { 200: usageSchema, ...errors },
      },
    },
    async (request) => {
      const caller = await accounts.console.callerIn(request.consoleSession!, request.params.orgId);
      const u = await usage.withPlan(caller);
      return {
        plan: u.organization.plan,
        monthlyQuota: u.organization.monthlyQuota,
        callsThisMonth: u.callsThisMonth,
        remaining: u.remaining,
        month: u.month.slice(0, 7),
        resetsAt: u.resetsAt.toISOString(),
        addOns: { userJourney: u.organization.userJourney, revenueAnalytics: u.organization.revenueAnalytics },
        features: {
          qrCodes: u.limits.qrCodes,
          dataRetentionDays: u.limits.dataRetentionDays,
          addOnsIncluded: u.limits.includesAddOns,
        },
      };
    },
  );
};
