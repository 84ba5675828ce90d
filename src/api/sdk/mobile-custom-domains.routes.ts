// Mobile SDK: the app's organization's custom domains (/api/v1/sdk/mobile/custom-domains): the
// same records and list form as the Service API, plus verify, which asks DNS again at once.
// X-App-ID and X-Mobile-App-API-Key on every call (401), one per-app rate limit (429); another
// organization's domain is simply not found.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DomainsService } from '../../core/domains/domains.service.js';
import { customDomainSchema, toCustomDomainJson } from '../schemas/custom-domain.js';
import { answerById } from '../service/by-id.routes.js';
import { customDomainRoutes } from '../service/custom-domains.routes.js';
import { requireMobileApp, type SdkCallers } from './mobile-sdk-auth.js';

export interface MobileCustomDomainDeps {
  domains: DomainsService;
  sdk: SdkCallers;
}

export const mobileCustomDomainRoutes: FastifyPluginAsyncZod<{ deps: MobileCustomDomainDeps }> = async (
  app,
  { deps },
) => {
  const { domains, sdk } = deps;
  const tags = ['mobile SDK: custom domains'];
  // Before validation: a caller without credentials hears 401, whatever else is wrong.
  requireMobileApp(app, sdk);

  await app.register(customDomainRoutes, { domains, tags, whose: " of the app's organization" });

  answerById(
    app,
    'post',
    '/custom-domains/:id/verify',
    {
      tags,
      summary: "Check the domain's CNAME now and answer the record as it is afterwards",
      description:
        'PENDING or FAILED becomes VERIFIED when the CNAME is found; a miss counts like one of the background check.',
      response: customDomainSchema,
    },
    async (caller, id) => toCustomDomainJson(await domains.verifyNow(caller, id)),
  );
};
