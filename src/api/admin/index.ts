// The operator API (/api/admin/v1): bootstrap of organizations, keys, plans, domains,
// webhooks and SSO partners, and one read-only ClickHouse query at a time. Registered only when SIGNPOST_ADMIN_TOKEN is set; otherwise every
// path under it is an ordinary 404.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { unauthenticated } from '../../shared/errors.js';
import { secretsEqual } from '../../shared/secrets.js';
import type { AccountServices } from '../../core/accounts/index.js';
import type { ReadOnlySql } from '../../core/data-access/read-only-sql.js';
import type { DeepLinkServices } from '../../core/deeplinks/index.js';
import type { DomainsService } from '../../core/domains/domains.service.js';
import type { ImportsService } from '../../core/imports/index.js';
import type { OrganizationServices } from '../../core/organizations/index.js';
import type { WebhooksService } from '../../core/webhooks/index.js';
import type { Config } from '../../shared/config.js';
import type { AuthFailureLimiters } from '../auth-failures.js';
import { adminDeadLetterRoutes, type DeadLetters } from './dead-letters.routes.js';
import { adminDebugSchemeRoutes } from './debug-scheme.routes.js';
import { adminDomainRoutes } from './domains.routes.js';
import { adminImportRoutes } from './imports.routes.js';
import { adminOrganizationRoutes } from './organizations.routes.js';
import { adminPartnerRoutes } from './partners.routes.js';
import { adminMemberRoutes } from './members.routes.js';
import { adminWebhookRoutes } from './webhooks.routes.js';
import { adminWebhookDeliveryRoutes } from './webhook-deliveries.routes.js';
import { adminNoticeRoutes } from './notices.routes.js';
import { documentAsOperatorRoutes } from './operator-doc.js';
import { adminSqlRoutes } from './sql.routes.js';

export interface AdminApiDeps {
  config: Pick<Config, 'security'>;
  authFailures: Pick<AuthFailureLimiters, 'adminToken'>;
  organizations: Pick<OrganizationServices, 'accounts' | 'notices' | 'partners'>;
  domains: DomainsService;
  /** The operator's webhook endpoint and delivery log. */
  webhooks: WebhooksService;
  accounts: AccountServices;
  deepLinks: Pick<DeepLinkServices, 'webSdk'>;
  deadLetters: DeadLetters;
  /** One read-only ClickHouse query for the operator (the embedded engine has no server to connect to). */
  readOnlySql: ReadOnlySql;
  /** Import jobs, for the `signpost import` command. */
  imports: Pick<ImportsService, 'operator'>;
}

export const adminApi: FastifyPluginAsyncZod<{ deps: AdminApiDeps; adminToken: string }> = async (
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
  documentAsOperatorRoutes(app);
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
  await app.register(adminImportRoutes, { imports: deps.imports.operator });
};
