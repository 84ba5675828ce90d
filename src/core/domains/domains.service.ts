// Custom domains: an organization reads its own (Service API, mobile SDK) and may have DNS asked
// again at once; the operator registers them (PENDING, with the CNAME to create) and overrides
// their status. Which domains are usable decides which hosts serve links, so every change tells
// the link caches.
import { conflict, notFound } from '../../shared/errors.js';
import { authorize } from '../accounts/permissions.js';
import type { OrganizationCaller } from '../caller.js';
import type { CustomDomain, CustomDomainsRepo, DomainSortField, DomainStatus } from '../../oltp/custom-domains.repo.js';
import type { DomainVerifier } from './domain-verifier.js';
import { isPlatformSubdomain } from './domain-name.js';

export { DOMAIN_STATUSES, SORT_COLUMNS } from '../../oltp/custom-domains.repo.js';
export type { CustomDomain, DomainSortField, DomainStatus } from '../../oltp/custom-domains.repo.js';

export interface DomainListQuery {
  page: number;
  size: number;
  search?: string | undefined;
  status?: DomainStatus | undefined;
  sort: { field: DomainSortField; direction: 'asc' | 'desc' };
}

/** The operator's list: every organization's domains, or one's, optionally only those to delete. */
export interface OperatorDomainListQuery extends DomainListQuery {
  organizationId?: number | undefined;
  deletionRequested?: boolean | undefined;
}

export function createDomainsService(deps: {
  repo: Pick<
    CustomDomainsRepo,
    | 'create'
    | 'get'
    | 'getForOrganization'
    | 'list'
    | 'listUsable'
    | 'setStatus'
    | 'setDeletionRequested'
    | 'delete'
    | 'setFallbackUrl'
  >;
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

  async function ownDomain(caller: OrganizationCaller, id: number): Promise<CustomDomain> {
    const domain = await repo.getForOrganization(caller.organization.id, id);
    if (!domain) throw notFound('CUSTOM_DOMAIN_NOT_FOUND', `custom domain ${id} does not exist`);
    return domain;
  }

  const service = {
    list(caller: OrganizationCaller, query: DomainListQuery): Promise<{ items: CustomDomain[]; total: number }> {
      const { page, size, search, status, sort } = query;
      return repo.list({ organizationId: caller.organization.id, search, status }, sort, { page, size });
    },

    /** The operator's list, across organizations. */
    listAll(query: OperatorDomainListQuery): Promise<{ items: CustomDomain[]; total: number }> {
      const { page, size, sort, ...filter } = query;
      return repo.list(filter, sort, { page, size });
    },

    /** The operator's read of any organization's domain. */
    async getAny(id: number): Promise<CustomDomain> {
      const domain = await repo.get(id);
      if (!domain) throw notFound('CUSTOM_DOMAIN_NOT_FOUND', `custom domain ${id} does not exist`);
      return domain;
    },

    /**
     * The organization asks for its domain to be deleted (domains.write): it stays, and keeps
     * serving, with deletionRequested set until the operator completes the deletion. Repeats keep
     * the first request's time.
     */
    async requestDeletion(caller: OrganizationCaller, id: number): Promise<CustomDomain> {
      authorize(caller, 'domains.write');
      const updated = await repo.setDeletionRequested(caller.organization.id, id, true);
      if (!updated) throw notFound('CUSTOM_DOMAIN_NOT_FOUND', `custom domain ${id} does not exist`);
      return updated;
    },

    /** Withdraws a deletion request the operator has not completed yet. */
    async withdrawDeletionRequest(caller: OrganizationCaller, id: number): Promise<CustomDomain> {
      authorize(caller, 'domains.write');
      const updated = await repo.setDeletionRequested(caller.organization.id, id, false);
      if (!updated) throw notFound('CUSTOM_DOMAIN_NOT_FOUND', `custom domain ${id} does not exist`);
      return updated;
    },

    /**
     * The operator deletes a domain (completing a deletion request, typically). Refused while
     * links still live on it: their addresses would silently change or clash.
     */
    async delete(id: number): Promise<void> {
      const outcome = await repo.delete(id);
      if (!outcome) throw notFound('CUSTOM_DOMAIN_NOT_FOUND', `custom domain ${id} does not exist`);
      if (!outcome.deleted) {
        throw conflict(
          'DOMAIN_IN_USE',
          `custom domain ${id} still serves ${outcome.shortUrls} short URLs and ${outcome.campaigns} campaigns: delete or move them first`,
        );
      }
      deps.linkChanged(null);
    },

    /** VERIFIED and ACTIVE domains: the ones links may use. */
    listUsable: (caller: OrganizationCaller): Promise<CustomDomain[]> => repo.listUsable(caller.organization.id),

    get: ownDomain,

    /** Asks DNS for the domain's CNAME now and answers the record as it is afterwards. */
    async verifyNow(caller: OrganizationCaller, id: number): Promise<CustomDomain> {
      authorize(caller, 'domains.write');
      const domain = await ownDomain(caller, id);
      await verifier.checkNow(domain.id);
      return ownDomain(caller, domain.id);
    },

    /** A member's registration (domains.write): the same as the operator's, in the caller's organization. */
    add(caller: OrganizationCaller, domainName: string): Promise<CustomDomain> {
      authorize(caller, 'domains.write');
      return service.register(caller.organization.id, domainName, caller.member?.userId ?? null);
    },

    /**
     * The operator's registration (and a member's, who is then its ownerUsername): PENDING, with
     * the CNAME the customer must create (none for platform subdomains).
     */
    async register(
      organizationId: number,
      domainName: string,
      createdByUserId: number | null = null,
    ): Promise<CustomDomain> {
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
        createdByUserId,
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

    /** Where the domain's bare root sends visitors (null: the 404 page); every instance reloads its hosts. */
    async setFallbackUrl(id: number, url: string | null): Promise<CustomDomain> {
      const updated = await repo.setFallbackUrl(id, url);
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
