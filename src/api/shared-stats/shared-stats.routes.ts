// GET /console/shared/{token}: a short URL's shared statistics, for anyone with the address, no
// sign-in (contract: "Filters and shared statistics"). Unknown, replaced or deleted tokens get the
// same 404 page. `days` picks the period (7, 30 or 90; anything else is the default 30). Never
// cached, never indexed, under the page's own nonce-based Content-Security-Policy.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SHARED_PERIODS, type LinkSharesService, type SharedPeriod } from '../../core/stats/link-shares.js';
import { notFoundPage } from '../redirect/pages.js';
import { newNonce, pagePolicy } from '../security-headers.js';
import { SHARED_STATS_ROUTE } from './shared-stats-path.js';
import { sharedStatsPage } from './shared-stats-page.js';

/** Tokens are 43 characters (256 bits, base64url); anything much longer is no token of ours. */
const MAX_TOKEN = 100;

export const sharedStatsRoutes: FastifyPluginAsyncZod<{ shares: LinkSharesService; publicBaseUrl: string }> = async (
  app,
  { shares, publicBaseUrl },
) => {
  app.get(
    SHARED_STATS_ROUTE,
    {
      schema: {
        hide: true,
        params: z.object({ token: z.string() }),
        querystring: z.object({ days: z.string().optional() }),
      },
    },
    async (request, reply) => {
      const days = (SHARED_PERIODS.find((d) => String(d) === request.query.days) ?? 30) as SharedPeriod;
      const { token } = request.params;
      const found = token.length <= MAX_TOKEN ? await shares.view(token, days) : undefined;
      const nonce = newNonce();
      return reply
        .code(found ? 200 : 404)
        .header('cache-control', 'no-store')
        .header('x-robots-tag', 'noindex, nofollow')
        .header('content-security-policy', pagePolicy({ nonce }))
        .type('text/html; charset=utf-8')
        .send(found ? sharedStatsPage({ found, days, publicBaseUrl, nonce }) : notFoundPage(nonce, 'en'));
    },
  );
};
