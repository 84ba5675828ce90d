// The console's developer menu for the organization's webhook: the endpoint (or null), saving it
// (the signing secret shown once, on the first save), a new secret (shown once), a test event, and
// the delivery log with each delivery's attempts and redelivery. Registered inside the console API
// context, so the session and CSRF rules apply; the core checks webhooks.manage.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AccountServices } from '../../core/accounts/index.js';
import type { WebhookSettings } from '../../core/webhooks/webhook-settings.js';
import { WEBHOOKS_DOC } from '../schemas/webhook.js';
import { registerWebhookSettingsRoutes } from '../webhook-settings.routes.js';
import { actingMember } from './acting-member.js';
import { errors, security, tags, writeErrors } from './route-docs.js';

export const consoleWebhookRoutes: FastifyPluginAsyncZod<{
  accounts: AccountServices;
  webhookSettings: WebhookSettings;
}> = async (app, { accounts, webhookSettings }) => {
  const acting = actingMember(accounts);
  registerWebhookSettingsRoutes(
    app,
    {
      tags,
      security,
      settingsErrors: errors,
      saveDescription: WEBHOOKS_DOC,
      errors: { list: errors, one: errors, test: writeErrors },
    },
    webhookSettings,
    (request) => acting(request, (request.params as { orgId: number }).orgId),
  );
};
