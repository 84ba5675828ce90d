// Service API: the organization's webhook (/api/v1/service/webhook), as the console's developer
// menu manages it: the endpoint (never its secret), setting it (the signing secret made here and
// shown once, on the first save), a new secret, removing it, and the delivery log with redelivery
// and a test event. The rules (outbound-address check, sealing, rotation, audit) are the webhooks
// core's; the key's scope (webhooks:read or webhooks:write) is checked before the handler runs.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Actor } from '../../core/accounts/audit-trail.js';
import type { WebhookSettings } from '../../core/webhooks/webhook-settings.js';
import { callerOf } from '../request-caller.js';
import { commonErrorResponses, errorBodySchema } from '../schemas/common.js';
import { WEBHOOKS_DOC } from '../schemas/webhook.js';
import { registerWebhookSettingsRoutes } from '../webhook-settings.routes.js';
import { security } from './route-docs.js';

const tags = ['service: webhooks'];

/** The key as the audit trail records it, with the address it called from. */
function keyActor(request: FastifyRequest): Actor {
  return { type: 'api_key', apiKeyId: callerOf(request).apiKeyId!, ip: request.ip };
}

export const webhookRoutes: FastifyPluginAsyncZod<{ webhookSettings: WebhookSettings }> = async (
  app,
  { webhookSettings: webhooks },
) => {
  registerWebhookSettingsRoutes(
    app,
    {
      tags,
      security,
      ownOrganization: true,
      settingsErrors: commonErrorResponses,
      saveDescription: `The URL must be https:// and reach a public address: local names (x.internal, router.lan, foo.localhost) and private, loopback or link-local addresses are refused (400, details naming url).\n\n${WEBHOOKS_DOC}`,
      errors: {
        list: commonErrorResponses,
        one: commonErrorResponses,
        test: { ...commonErrorResponses, 409: errorBodySchema },
      },
    },
    webhooks,
    async (request) => ({ caller: callerOf(request), actor: keyActor(request) }),
  );

  app.delete(
    '/webhook',
    {
      schema: {
        tags,
        security,
        summary: 'Remove the webhook endpoint and its secret (the delivery log stays)',
        description:
          'No new deliveries are made. Deliveries still pending wait, as for a disabled endpoint, until an endpoint is set again or their 24-hour retry window ends. Setting an endpoint again makes a new signing secret.',
        response: { 204: z.null(), ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      await webhooks.remove(callerOf(request), keyActor(request));
      return reply.code(204).send(null);
    },
  );
};
