// Operator routes for an organization's webhook endpoint: set it and read it back (never the
// secret). The rules (URL safety, sealed secret, rotation) are the webhooks service's.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEFAULT_KEEP_PREVIOUS_HOURS, WEBHOOK_CATEGORIES, type WebhooksService } from '../../core/webhooks/index.js';
import { errorBodySchema } from '../schemas/common.js';
import { toWebhookEndpointJson, WEBHOOKS_DOC, webhookEndpointSchema } from '../schemas/webhook.js';
import { operatorAnswer, operatorErrors, orgParams as params } from './operator-doc.js';

export const adminWebhookRoutes: FastifyPluginAsyncZod<{ webhooks: WebhooksService }> = async (app, { webhooks }) => {
  operatorAnswer(
    app,
    'PUT',
    '/organizations/:orgId/webhook',
    {
      summary: 'Set the webhook endpoint, secret, categories and state',
      description: WEBHOOKS_DOC,
      params,
      body: z.object({
        url: z.string().url().max(2000),
        secret: z
          .string()
          .min(16, 'must be at least 16 characters')
          .max(256)
          .optional()
          .describe('required the first time; left out, the current secret stays'),
        events: z.array(z.enum(WEBHOOK_CATEGORIES)).min(1).optional().describe('categories; all when left out'),
        enabled: z.boolean().optional().describe('default true; enabling again clears the failure streak'),
        keepPreviousSecretHours: z
          .number()
          .int()
          .min(0)
          .max(720)
          .optional()
          .describe(
            `after a secret change, how long the previous secret is still signed with (default ${DEFAULT_KEEP_PREVIOUS_HOURS}; 0 drops it at once); without a change, moves the end of the current rotation`,
          ),
      }),
      response: webhookEndpointSchema,
      errors: operatorErrors,
    },
    async ({ orgId }, body) => toWebhookEndpointJson(await webhooks.setEndpoint(orgId, body)),
  );

  operatorAnswer(
    app,
    'GET',
    '/organizations/:orgId/webhook',
    {
      summary: 'Read the webhook endpoint (without its secret)',
      params,
      response: webhookEndpointSchema,
      errors: { 401: errorBodySchema, 404: errorBodySchema },
    },
    async ({ orgId }) => toWebhookEndpointJson(await webhooks.getEndpoint(orgId)),
  );
};
