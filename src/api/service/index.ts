// The Service API context (/api/v1/service): every route behind X-API-KEY, allow-list and quota,
// every answered call recorded as an api_request event (usage per key and route, audit trail).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uuidv7 } from '../../shared/ids.js';
import type { AccessService } from '../../core/access/index.js';
import type { EventPublisher } from '../../core/event-publisher.js';
import type { ImportsService } from '../../core/imports/index.js';
import type { JourneyService } from '../../core/journey/index.js';
import type { OrganizationServices } from '../../core/organizations/index.js';
import type { WebhookSettings } from '../../core/webhooks/webhook-settings.js';
import type { AuthFailureLimiters } from '../auth-failures.js';
import { normalizeIp } from '../../shared/ip.js';
import { createServiceAuthenticator } from './auth.js';
import { type OrganizationResourceDeps, registerOrganizationResources } from './organization-resources.js';
import { importRoutes } from './imports.routes.js';
import { usageRoutes } from './usage.routes.js';
import { userRoutes } from './users.routes.js';
import { webhookRoutes } from './webhook.routes.js';
import { security } from './route-docs.js';

export interface ServiceApiDeps extends OrganizationResourceDeps {
  /** Who is calling: Service API keys (allow-list, quota). */
  access: Pick<AccessService, 'serviceKey'>;
  authFailures: Pick<AuthFailureLimiters, 'serviceKey'>;
  /** Every answered call is an api_request event. */
  events: Pick<EventPublisher, 'record'>;
  organizations: Pick<OrganizationServices, 'usage'>;
  journey: Pick<JourneyService, 'users'>;
  /** Imports of another link service's links. */
  imports: Pick<ImportsService, 'jobs'>;
  /** The organization's webhook and its delivery log. */
  webhookSettings: WebhookSettings;
}

export const serviceApi: FastifyPluginAsyncZod<{ deps: ServiceApiDeps }> = async (app, { deps }) => {
  const authenticate = createServiceAuthenticator(deps.access.serviceKey, deps.authFailures.serviceKey);
  app.addHook('onRequest', async (request) => {
    request.caller = await authenticate(request);
  });

  app.addHook('onResponse', async (request, reply) => {
    const auth = request.caller;
    if (auth?.apiKeyId == null) return;
    deps.events.record({
      eventId: uuidv7(),
      type: 'api_request',
      occurredAt: Date.now(),
      organizationId: auth.organization.id,
      data: {
        apiKeyId: auth.apiKeyId,
        method: request.method,
        route: request.routeOptions.url ?? 'unknown',
        status: reply.statusCode,
        durationMs: reply.elapsedTime,
        ip: normalizeIp(request.ip),
        requestId: request.id,
      },
    });
  });

  await app.register(usageRoutes, { usage: deps.organizations.usage });
  await registerOrganizationResources(app, deps, { tags: ['service: custom domains'], security });
  await app.register(userRoutes, { users: deps.journey.users });
  await app.register(importRoutes, { imports: deps.imports.jobs });
  await app.register(webhookRoutes, { webhookSettings: deps.webhookSettings });
};
