// The question a TLS proxy asks before it obtains a certificate for a name it has not seen yet
// (Caddy's on-demand TLS: `ask http://127.0.0.1:8080/api/tls/ask`, docs/operations.md). Yes for the
// service's own host names and for custom domains that serve links now (VERIFIED or ACTIVE); no
// for anything else, so a name someone merely points at the server gets no certificate.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../shared/errors.js';
import { errorBodySchema } from './schemas/common.js';
import type { LinkResolver } from '../core/redirect/link-resolver.js';
import type { Config } from '../shared/config.js';

export interface TlsAskDeps {
  config: Pick<Config, 'server'>;
  /** Whether a custom domain serves links now. */
  redirect: Pick<LinkResolver, 'servesDomain'>;
}

export const tlsAskRoutes: FastifyPluginAsyncZod<{ deps: TlsAskDeps }> = async (app, { deps }) => {
  const ownHosts = new Set([
    new URL(deps.config.server.publicBaseUrl).hostname.toLowerCase(),
    ...deps.config.server.operatorHosts,
  ]);

  app.get(
    '/api/tls/ask',
    {
      schema: {
        tags: ['operations'],
        summary: 'Whether a TLS certificate may be obtained for a host name (on-demand TLS)',
        description:
          "200 for the service's own hosts and for custom domains that are VERIFIED or ACTIVE; 404 otherwise. Caddy's `on_demand_tls { ask … }` calls it with `?domain=`.",
        querystring: z.object({
          domain: z.string().min(1).max(253).describe('the host name the certificate would be for'),
        }),
        response: {
          200: z.object({ domain: z.string(), allowed: z.literal(true) }),
          400: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request) => {
      const domain = request.query.domain.toLowerCase().replace(/\.$/, '');
      if (!ownHosts.has(domain) && !(await deps.redirect.servesDomain(domain))) {
        throw notFound('DOMAIN_NOT_SERVED', `${domain} is not a host this service serves`);
      }
      return { domain, allowed: true as const };
    },
  );
};
