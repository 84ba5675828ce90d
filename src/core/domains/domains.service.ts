// Custom domains: an organization reads its own (Service API, mobile SDK) and may have DNS asked
// again at once; the operator registers them (PENDING, with the CNAME to create) and overrides
// their status. Which domains are usable decides which hosts serve links, so every change tells
// the link caches.
import { conflict, notFound } from '../../shared/errors.js';
import { authorize } from '../accounts/roles.js';
import type { Caller } from '../caller.js';
import type { CustomDomain, CustomDomainsRepo, DomainSortField, DomainStatus } from '../../oltp/custom-domains.repo.js';
import type { DomainVerifier } from './domain-verifier.js';
import { isPlatformSubdomain } from './domain-name.js';

export { DOMAIN_STATUSES, SORT_COLUMNS } from '../../oltp/custom-domains.repo.js';
export type { CustomDomain, DomainSortField, DomainStatus } from '../../oltp/custom-domains.repo.js';

/** Whoever asks on behalf of an organization: a Service API key, a mobile app, or a console member within their role. */
export interface DomainCaller {
  organization: { id: number };
  member?: Caller['member'];
}

export interface DomainListQuery {
  page: number;
  size: number;
  search?: string | undefined;
  status?: DomainStatus | undefined;
  sort: { field: DomainSortField; direction: 'asc' | 'desc' };
}

export function createDomainsService(deps: {
  repo: Pick<CustomDomainsRepo, 'create' | 'getForOrganization' | 'list' | 'listUsable' | 'setStatus'>;
  organizationExists(id: number): Promise<boolean>;
  verifier: DomainVerifier;
  /** The platform's own host name (lowercase). */
  platformHost: string;
  /** Where a customer's CNAME must point. */
  cnameTarget: string;
  /** Domain status decides which hosts serve links on every instance: null reloads them all. */
  linkChanged(organizationId: number | null): void;
}) {
  const { repo, verifier, platformHost } = deps;

  async function ownDomain(caller: DomainCaller, id: number): Promise<CustomDomain> {
    const domain = await repo.getForOrganization(caller.organization.id, id);
    if (!domain) throw notFound('CUSTOM_DOMAIN_NOT_FOUND', `custom domain ${id} does not exist`);
    return domain;
  }

  const service = {
    list(caller: DomainCaller, query: DomainListQuery): Promise<{ items: CustomDomain[]; total: number }> {
      const { page, size, search, status, sort } = query;
      return repo.list(caller.organization.id, { search, status }, sort, { page, size });
    },

    /** VERIFIED and ACTIVE domains: the ones links may use. */
    listUsable: (caller: DomainCaller): Promise<CustomDomain[]> => repo.listUsable(caller.organization.id),

    get: ownDomain,

    /** Asks DNS for the domain's CNAME now and answers the record as it is afterwards. */
    async verifyNow(caller: DomainCaller, id: number): Promise<CustomDomain> {
      authorize(caller, 'domains.write');
      const domain = await ownDomain(caller, id);
      await verifier.checkNow(domain.id);
      return ownDomain(caller, domain.id);
    },

    /** A member's registration (domains.write): the same as the operator's, in the caller's organization. */
    add(caller: DomainCaller, domainName: string): Promise<CustomDomain> {
      authorize(caller, 'domains.write');
      return service.register(caller.organization.id, domainName);
    },

    /** The operator's registration: PENDING, with the CNAME the customer must create (none for platform subdomains). */
    async register(organizationId: number, domainName: string): Promise<CustomDomain> {
      if (!(await deps.organizationExists(organizationId))) {
        throw notFound('ORGANIZATION_NOT_FOUND', `organization ${organizationId} does not exist`);
      }
      if (domainName === platformHost) throw conflict('DOMAIN_TAKEN', `${domainName} is the platform's own host`);
      const external = !isPlatformSubdomain(domainName, platformHost);
      const created = await repo.create({
        organizationId,
        domainName,
        cnameRecordName: external ? domainName : null,
        cnameRecordValue: external ? deps.cnameTarget : null,
      });
      if (!created) throw conflict('DOMAIN_TAKEN', `${domainName} is already registered`);
      deps.linkChanged(null);
      return created;
    },

    /** The operator's override, for example ACTIVE once the load balancer is connected. */
    async setStatus(id: number, status: DomainStatus): Promise<CustomDomain> {
      const updated = await repo.setStatus(id, status);
      if (!updated) throw notFound('CUSTOM_DOMAIN_NOT_FOUND', `custom domain ${id} does not exist`);
      deps.linkChanged(null);
      return updated;
    },

    /** The background DNS checks (run by worker instances). */
    startVerification: () => verifier.start(),
    /** Stops the checks and waits for the one running; before PostgreSQL closes. */
    stopVerification: () => verifier.stop(),
  };
  return service;
}

export type DomainsService = ReturnType<typeof createDomainsService>;
