// Wires custom domains: their repositories, the DNS verification job and the service over them.
import { createCnameChecker } from '../core/domains/cname-check.js';
import { createDomainVerifier } from '../core/domains/domain-verifier.js';
import { createDomainsService, type DomainsService } from '../core/domains/domains.service.js';
import { createCustomDomainsRepo } from '../oltp/custom-domains.repo.js';
import { createDomainVerificationRepo } from '../oltp/domain-verification.repo.js';
import { createOrganizationsRepo } from '../oltp/organizations.repo.js';
import type { Sql } from '../oltp/postgres.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';

export function composeDomains(ctx: {
  sql: Sql;
  config: Pick<Config, 'dnsResolvers' | 'domainVerifyIntervalMs' | 'domainVerifyMaxMisses' | 'publicBaseUrl' | 'customDomainCnameTarget'>;
  log: Logger;
  linkChanged(organizationId: number | null): void;
}): DomainsService {
  const { sql, config, linkChanged } = ctx;
  const organizations = createOrganizationsRepo({ sql });
  const verifier = createDomainVerifier({
    repo: createDomainVerificationRepo({ sql }),
    checker: createCnameChecker({ servers: config.dnsResolvers }),
    intervalMs: config.domainVerifyIntervalMs,
    maxMisses: config.domainVerifyMaxMisses,
    log: ctx.log,
    onStatusChange: () => linkChanged(null),
  });
  return createDomainsService({
    repo: createCustomDomainsRepo({ sql }),
    organizationExists: async (id) => (await organizations.get(id)) !== undefined,
    verifier,
    platformHost: new URL(config.publicBaseUrl).hostname.toLowerCase(),
    cnameTarget: config.customDomainCnameTarget,
    linkChanged,
  });
}
