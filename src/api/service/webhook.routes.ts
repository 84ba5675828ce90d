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
import {
  rotatedWebhookSchema,
  savedWebhookSchema,
  toWebhookEndpointJson,
  WEBHOOKS_DOC,
  webhookSettingsBodySchema,
  webhookSettingsSchema,
} from '../schemas/webhook.js';
import { registerDeliveryLogRoutes } from '../webhook-delivery-log.routes.js';
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
  app.get(
    '/webhook',
    {
      schema: {
        tags,
        security,
        summary: "The organization's webhook endpoint (never its secret); null when none is set",
        response: { 200: webhookSettingsSchema, ...commonErrorResponses },
      },
    },
    async (request) => {
      const endpoint = await webhooks.get(callerOf(request));
      return { endpoint: endpoint && toWebhookEndpointJson(endpoint) };
    },
  );

  app.put(
    '/webhook',
    {
      schema: {
        tags,
        security,
        summary:
          'Set the webhook endpoint: 201 with its signing secret (shown this once) the first time, then 200 with secret null',
        description: `The URL must be https:// and reach a public address: local names (x.internal, router.lan, foo.localhost) and private, loopback or link-local addresses are refused (400, details naming url).\n\n${WEBHOOKS_DOC}`,
        body: webhookSettingsBodySchema,
        response: { 200: savedWebhookSchema, 201: savedWebhookSchema, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const { endpoint, secret } = await webhooks.save(callerOf(request), keyActor(request), request.body);
      return reply.code(secret === null ? 200 : 201).send({ endpoint: toWebhookEndpointJson(endpoint), secret });
    },
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

  app.post(
    '/webhook/secret',
    {
      schema: {
        tags,
        security,
        summary: 'A new signing secret (shown this once); the previous one is still signed with for 24 hours',
        response: { 200: rotatedWebhookSchema, ...commonErrorResponses },
      },
    },
    async (request) => {
      const { endpoint, secret } = await webhooks.rotateSecret(callerOf(request), keyActor(request));
      return { endpoint: toWebhookEndpointJson(endpoint), secret };
    },
  );

  registerDeliveryLogRoutes(
    app,
    {
      tags,
      security,
      ownOrganization: true,
      errors: {
        list: commonErrorResponses,
        one: commonErrorResponses,
        test: { ...commonErrorResponses, 409: errorBodySchema },
      },
    },
    {
      list: (request, _orgId, filter, page) => webhooks.deliveries(callerOf(request), filter, page),
      get: (request, _orgId, id) => webhooks.delivery(callerOf(request), id),
      redeliver: (request, _orgId, id) => webhooks.redeliver(callerOf(request), id),
      sendTest: (request) => webhooks.sendTest(callerOf(request)),
    },
  );
};
