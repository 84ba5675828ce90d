// Reports by mail in the console: the signed-in member's subscriptions in an organization (list,
// subscribe to a weekly or monthly report of the organization, a tag or a link, cancel). Registered
// inside the console API context, so the session and CSRF rules apply; the core checks the role.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountServices } from '../../core/accounts/index.js';
import type { ReportSubscriptions, ReportSubscriptionView } from '../../core/reports/report-subscriptions.service.js';
import { idSchema } from '../schemas/common.js';
import { memberRoutes } from './acting-member.js';
import { errors, orgParams, writeErrors } from './route-docs.js';

const scopeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('organization') }),
  z.object({ type: z.enum(['tag', 'url', 'campaign']), id: idSchema }),
]);

const subscriptionSchema = z.object({
  id: z.number().int(),
  frequency: z.enum(['weekly', 'monthly']),
  scope: z.object({
    type: z.enum(['organization', 'tag', 'url', 'campaign']),
    id: z.number().int().optional().describe('the tag, short URL or campaign; absent for the organization'),
    name: z.string().describe("the organization's, tag's or link's name"),
  }),
  timeZone: z.string().describe('where weeks (from Monday) and months begin'),
  lastSentAt: z.string().nullable().describe('when the last report was mailed; null before the first'),
  createdAt: z.string(),
});

const toJson = (s: ReportSubscriptionView) => ({
  id: s.id,
  frequency: s.frequency,
  scope: s.scope,
  timeZone: s.timeZone,
  lastSentAt: s.lastSentAt?.toISOString() ?? null,
  createdAt: s.createdAt.toISOString(),
});

export const consoleReportRoutes: FastifyPluginAsyncZod<{
  accounts: AccountServices;
  reports: ReportSubscriptions;
}> = async (app, { accounts, reports }) => {
  const route = memberRoutes(app, accounts);
  const path = '/organizations/:orgId/report-subscriptions';

  route(
    'GET',
    path,
    {
      summary: "The signed-in member's report subscriptions in the organization",
      params: orgParams,
      response: z.object({ items: z.array(subscriptionSchema) }),
      errors,
    },
    async ({ caller }) => ({ items: (await reports.list(caller)).map(toJson) }),
  );

  route(
    'POST',
    path,
    {
      summary:
        'Subscribe to a weekly or monthly report by mail of the organization, a tag or a link (409 when already subscribed)',
      params: orgParams,
      body: z.object({
        frequency: z.enum(['weekly', 'monthly']),
        scope: scopeSchema,
        timeZone: z.string().min(1).max(64).default('UTC').describe('IANA zone; default UTC'),
      }),
      status: 201,
      response: subscriptionSchema,
      errors: writeErrors,
    },
    async ({ caller }, request) => toJson(await reports.subscribe(caller, request.body)),
  );

  route(
    'DELETE',
    `${path}/:id`,
    {
      summary: 'Cancel one of your report subscriptions',
      params: orgParams.extend({ id: idSchema }),
      status: 204,
      errors,
    },
    async ({ caller }, request) => reports.cancel(caller, request.params.id),
  );
};
