// The console's custom domains beyond the Service API's reads: a member adds one (PENDING, with
// the CNAME record to create) and asks DNS again now. Inside the console API context: session and
// CSRF rules apply; the core checks domains.write.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountServices } from '../../core/accounts/index.js';
import type { DomainsService } from '../../core/domains/domains.service.js';
import { idSchema } from '../schemas/common.js';
import { customDomainSchema, domainNameSchema, toCustomDomainJson } from '../schemas/custom-domain.js';
import { writeErrors as errors, orgParams, security, tags } from './route-docs.js';

export const consoleDomainRoutes: FastifyPluginAsyncZod<{
  accounts: AccountServices;
  domains: DomainsService;
}> = async (app, { accounts, domains }) => {
  app.post(
    '/organizations/:orgId/custom-domains',
    {
      schema: {
        tags,
        security,
        summary: 'Add a custom domain: PENDING until its CNAME record is found',
        params: orgParams,
        body: z.object({ domainName: domainNameSchema }),
        response: { 201: customDomainSchema, ...errors },
      },
    },
    async (request, reply) => {
      const caller = await accounts.console.callerIn(request.consoleSession!, request.params.orgId);
      return reply.code(201).send(toCustomDomainJson(await domains.add(caller, request.body.domainName)));
    },
  );

  app.post(
    '/organizations/:orgId/custom-domains/:id/verify',
    {
      schema: {
        tags,
        security,
        summary: "Check the domain's CNAME now and answer the record as it is afterwards",
        params: orgParams.extend({ id: idSchema }),
        response: { 200: customDomainSchema, ...errors },
      },
    },
    async (request) => {
      const caller = await accounts.console.callerIn(request.consoleSession!, request.params.orgId);
      return toCustomDomainJson(await domains.verifyNow(caller, request.params.id));
    },
  );
};
