// The console's developer menu for the organization's webhook: the endpoint (or null), saving it
// (the signing secret shown once, on the first save), a new secret (shown once), a test event, and
// the delivery log with each delivery's attempts and redelivery. Registered inside the console API
// context, so the session and CSRF rules apply; the core checks webhooks.manage.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AccountServices } from '../../core/accounts/index.js';
import type { WebhookSettings } from '../../core/webhooks/webhook-settings.js';
import {
  rotatedWebhookSchema,
  savedWebhookSchema,
  toWebhookEndpointJson,
  WEBHOOKS_DOC,
  webhookSettingsBodySchema,
  webhookSettingsSchema,
} from '../schemas/webhook.js';
import { registerDeliveryLogRoutes } from '../webhook-delivery-log.routes.js';
import { actingMember } from './acting-member.js';
import { errors, orgParams, security, tags, writeErrors } from './route-docs.js';

export const consoleWebhookRoutes: FastifyPluginAsyncZod<{
  accounts: AccountServices;
  webhookSettings: WebhookSettings;
}> = async (app, { accounts, webhookSettings: webhooks }) => {
  const acting = actingMember(accounts);

  app.get(
    '/organizations/:orgId/webhook',
    {
      schema: {
        tags,
        security,
        summary: "The organization's webhook endpoint (never its secret); null when none is set",
        params: orgParams,
        response: { 200: webhookSettingsSchema, ...errors },
      },
    },
    async (request) => {
      const { caller } = await acting(request, request.params.orgId);
      const endpoint = await webhooks.get(caller);
      return { endpoint: endpoint && toWebhookEndpointJson(endpoint) };
    },
  );

  app.put(
    '/organizations/:orgId/webhook',
    {
      schema: {
        tags,
        security,
        summary:
          'Set the webhook endpoint: 201 with its signing secret (shown this once) the first time, then 200 with secret null',
        description: WEBHOOKS_DOC,
        params: orgParams,
        body: webhookSettingsBodySchema,
        response: { 200: savedWebhookSchema, 201: savedWebhookSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { caller, actor } = await acting(request, request.params.orgId);
      const { endpoint, secret } = await webhooks.save(caller, actor, request.body);
      return reply.code(secret === null ? 200 : 201).send({ endpoint: toWebhookEndpointJson(endpoint), secret });
    },
  );

  app.post(
    '/organizations/:orgId/webhook/secret',
    {
      schema: {
        tags,
        security,
        summary: 'A new signing secret (shown this once); the previous one is still signed with for 24 hours',
        params: orgParams,
        response: { 200: rotatedWebhookSchema, ...errors },
      },
    },
    async (request) => {
      const { caller, actor } = await acting(request, request.params.orgId);
      const { endpoint, secret } = await webhooks.rotateSecret(caller, actor);
      return { endpoint: toWebhookEndpointJson(endpoint), secret };
    },
  );

  registerDeliveryLogRoutes(
    app,
    { tags, security, errors: { list: errors, one: errors, test: writeErrors } },
    {
      list: async (request, orgId, filter, page) =>
        webhooks.deliveries((await acting(request, orgId)).caller, filter, page),
      get: async (request, orgId, id) => webhooks.delivery((await acting(request, orgId)).caller, id),
      redeliver: async (request, orgId, id) => webhooks.redeliver((await acting(request, orgId)).caller, id),
      sendTest: async (request, orgId) => webhooks.sendTest((await acting(request, orgId)).caller),
    },
  );
};
