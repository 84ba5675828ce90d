// Wires custom domains: their repositories, the DNS verification job and the service over them.
import { createCnameChecker } from '../core/domains/cname-check.js';
import { createDomainVerifier } from '../core/domains/domain-verifier.js';
import { createDomainsService, type DomainsService } from '../core/domains/domains.service.js';
import { createDomainVerificationRepo } from '../oltp/domain-verification.repo.js';
import type { Config } from '../shared/config.js';
import type { Wiring } from './wiring.js';

export function composeDomains(
  ctx: Pick<Wiring, 'sql' | 'log' | 'repos' | 'linkChanged'> & {
    config: Pick<Config, 'server' | 'domains'>;
  },
): DomainsService {
  const { sql, config, linkChanged } = ctx;
  const { organizations, customDomains } = ctx.repos;
  const verifier = createDomainVerifier({
    repo: createDomainVerificationRepo({ sql }),
    checker: createCnameChecker({ servers: config.domains.dnsResolvers }),
    intervalMs: config.domains.verifyIntervalMs,
    maxMisses: config.domains.verifyMaxMisses,
    log: ctx.log,
    onStatusChange: () => linkChanged(null),
  });
  return createDomainsService({
    repo: customDomains,
    organizationExists: async (id) => (await organizations.get(id)) !== undefined,
    verifier,
    platformHost: new URL(config.server.publicBaseUrl).hostname.toLowerCase(),
    cnameTarget: config.domains.cnameTarget,
    linkChanged,
  });
}
