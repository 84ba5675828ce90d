// The operator API (/api/admin/v1): bootstrap of organizations, keys, plans, domains,
// webhooks and SSO partners, and one read-only ClickHouse query at a time. Registered only when SIGNPOST_ADMIN_TOKEN is set; otherwise every
// path under it is an ordinary 404.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { unauthenticated } from '../../shared/errors.js';
import { secretsEqual } from '../../shared/secrets.js';
import type { AppDeps } from '../deps.js';
import { adminDeadLetterRoutes } from './dead-letters.routes.js';
import { adminDebugSchemeRoutes } from './debug-scheme.routes.js';
import { adminDomainRoutes } from './domains.routes.js';
import { adminOrganizationRoutes } from './organizations.routes.js';
import { adminPartnerRoutes } from './partners.routes.js';
import { adminMemberRoutes } from './members.routes.js';
import { adminWebhookRoutes } from './webhooks.routes.js';
import { adminWebhookDeliveryRoutes } from './webhook-deliveries.routes.js';
import { adminNoticeRoutes } from './notices.routes.js';
import { adminSqlRoutes } from './sql.routes.js';

export const adminApi: FastifyPluginAsyncZod<{ deps: AppDeps; adminToken: string }> = async (
  app,
  { deps, adminToken },
) => {
  // A presented but wrong token counts against the caller's address (auth-failures.ts).
  const failures = deps.authFailures.adminToken;
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (header !== undefined) failures.check(request);
    const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
    if (!match?.[1] || !secretsEqual(match[1].trim(), adminToken)) {
      if (header !== undefined) failures.fail(request);
      throw unauthenticated('ADMIN_TOKEN_INVALID', 'a valid operator token is required (Authorization: Bearer …)');
    }
  });
  await app.register(adminOrganizationRoutes, { organizations: deps.organizations.accounts });
  await app.register(adminDomainRoutes, { domains: deps.domains, config: deps.config });
  await app.register(adminWebhookRoutes, { webhooks: deps.webhooks });
  await app.register(adminWebhookDeliveryRoutes, { webhooks: deps.webhooks });
  await app.register(adminNoticeRoutes, { notices: deps.organizations.notices });
  await app.register(adminPartnerRoutes, { partners: deps.organizations.partners });
  await app.register(adminMemberRoutes, { accounts: deps.accounts });
  await app.register(adminDebugSchemeRoutes, { webSdk: deps.deepLinks.webSdk });
  await app.register(adminDeadLetterRoutes, { deadLetters: deps.deadLetters });
  await app.register(adminSqlRoutes, { readOnlySql: deps.readOnlySql });
};
