// An organization's notices (its webhook endpoint disabled after repeated failures, for one).
import type { Notice, NoticesRepo } from '../../oltp/notices.repo.js';
import type { OrganizationsRepo } from '../../oltp/organizations.repo.js';
import { existingOrganization } from './existing-organization.js';

export type { Notice };

export function createNoticesService(deps: { organizations: OrganizationsRepo; notices: NoticesRepo }) {
  return {
    /** Newest first, at most 100. */
    async list(organizationId: number): Promise<Notice[]> {
      existingOrganization(await deps.organizations.get(organizationId), organizationId);
      return deps.notices.list(organizationId);
    },
  };
}

export type NoticesService = ReturnType<typeof createNoticesService>;
