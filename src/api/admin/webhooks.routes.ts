// Operator route for an organization's webhook endpoint. The secret is sealed before it is stored;
// a changed secret keeps the previous one valid for the rotation (both signatures are sent).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WEBHOOK_CATEGORIES } from '../../oltp/webhook-endpoints.repo.js';
import { badRequest } from '../../shared/errors.js';
import type { AppDeps } from '../deps.js';
import { errorBodySchema, idSchema } from '../schemas/common.js';
import { found } from './found-organization.js';

const webhookSchema = z
  .object({
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_CATEGORIES)),
    enabled: z.boolean(),
    secretRotation: z.boolean().describe('true while the previous secret is still signed with'),
    updatedAt: z.string(),
  })
  .meta({ id: 'WebhookEndpoint' });

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

export const adminWebhookRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.put('/organizations/:orgId/webhook', {
    schema: {
      tags: ['operator'], security: [{ adminToken: [] }], summary: 'Set the webhook endpoint, secret and categories',
      params: z.object({ orgId: idSchema }),
      body: z.object({
        url: z.string().url().max(2000),
        secret: z.string().min(16, 'must be at least 16 characters').max(256),
        events: z.array(z.enum(WEBHOOK_CATEGORIES)).min(1).optional(),
      }),
      response: { 200: webhookSchema, 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema },
    },
  }, async (request) => {
    const { orgId } = request.params;
    found(await deps.repos.organizations.get(orgId), orgId);
    const url = new URL(request.body.url);
    const insecureAllowed = deps.config.webhookAllowInsecure && loopbackHosts.has(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && insecureAllowed)) {
      throw badRequest('WEBHOOK_URL_INSECURE', 'url must start with https://');
    }
    if (url.username || url.password) throw badRequest('WEBHOOK_URL_INVALID', 'url must not carry credentials');
    const current = await deps.repos.webhookEndpoints.currentSecretSealed(orgId);
    const secretChanged = current !== undefined && deps.secretBox.open(current) !== request.body.secret;
    const endpoint = await deps.repos.webhookEndpoints.upsert({
      organizationId: orgId,
      url: url.toString(),
      secretSealed: deps.secretBox.seal(request.body.secret),
      secretChanged,
      events: [...new Set(request.body.events ?? WEBHOOK_CATEGORIES)],
    });
    return {
      url: endpoint.url,
      events: endpoint.events,
      enabled: endpoint.enabled,
      secretRotation: endpoint.rotating,
      updatedAt: endpoint.updatedAt.toISOString(),
    };
  });
};
