// The answer to an organization id that does not exist.
import { notFound } from '../../shared/errors.js';
import type { Organization } from '../../oltp/organizations.repo.js';

export function existingOrganization(org: Organization | undefined, id: number): Organization {
  if (!org) throw notFound('ORGANIZATION_NOT_FOUND', `organization ${id} does not exist`);
  return org;
}
