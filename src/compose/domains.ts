// Wires custom domains: their repositories, the DNS verification job and the service over them.
import { createCnameChecker } from '../core/domains/cname-check.js';
import { createDomainVerifier } from '../core/domains/domain-verifier.js';
import { createDomainsService, type DomainsService } from '../core/domains/domains.service.js';
import { createDomainVerificationRepo } from '../oltp/domain-verification.repo.js';
import type { Wiring } from './wiring.js';

export function composeDomains(ctx: Pick<Wiring, 'sql' | 'config' | 'log' | 'repos' | 'linkChanged'>): DomainsService {
  const { sql, config, linkChanged } = ctx;
  const { organizations, customDomains } = ctx.repos;
  const verifier = createDomainVerifier({
    repo: createDomainVerificationRepo({ sql }),
    checker: createCnameChecker({ servers: config.dnsResolvers }),
    intervalMs: config.domainVerifyIntervalMs,
    maxMisses: config.domainVerifyMaxMisses,
    log: ctx.log,
    onStatusChange: () => linkChanged(null),
  });
  return createDomainsService({
    repo: customDomains,
    organizationExists: async (id) => (await organizations.get(id)) !== undefined,
    verifier,
    platformHost: new URL(config.publicBaseUrl).hostname.toLowerCase(),
    cnameTarget: config.customDomainCnameTarget,
    linkChanged,
  });
}
