// GET /api/v1/service/usage: the caller's plan, quota and calls this month (an extension; what
// a customer checks before a 429 surprises them).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { UsageService } from '../../core/organizations/usage.service.js';
import { callerOf } from '../request-caller.js';
import { commonErrorResponses } from '../schemas/common.js';
import { security } from './route-docs.js';

const usageSchema = z
  .object({
    organizationId: z.number().int(),
    organizationName: z.string(),
    plan: z.enum(['FREE', 'PRO', 'BUSINESS', 'ENTERPRISE']),
    month: z.string().describe('first day of the UTC month, YYYY-MM-DD'),
    monthlyQuota: z.number().int(),
    callsThisMonth: z.number().int().describe('including this call'),
    remaining: z.number().int(),
  })
  .meta({ id: 'ServiceUsage' });

export const usageRoutes: FastifyPluginAsyncZod<{ usage: UsageService }> = async (app, { usage }) => {
  app.get(
    '/usage',
    {
      schema: {
        tags: ['service: account'],
        summary: 'Plan, monthly quota and calls used (extension)',
        security,
        response: { 200: usageSchema, ...commonErrorResponses },
      },
    },
    async (request) => {
      const { organization, month, callsThisMonth, remaining } = await usage.thisMonth(callerOf(request).organization);
      return {
        organizationId: organization.id,
        organizationName: organization.name,
        plan: organization.plan,
        month,
        monthlyQuota: organization.monthlyQuota,
        callsThisMonth,
        remaining,
      };
    },
  );
};
