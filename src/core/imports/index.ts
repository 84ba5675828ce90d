// The imports feature as the API sees it: an organization's import jobs (Service API, console),
// and the same for the operator, who names the organization in the path.
import type { Organization } from '../../oltp/organizations.repo.js';
import type { Page } from '../links/tracked-links.js';
import { existingOrganization } from '../organizations/existing-organization.js';
import {
  createImportJobsService,
  type ImportJob,
  type NewCsvImportJob,
  type NewImportJob,
} from './import-jobs.service.js';

export { MAX_CSV_JOB_ROWS } from './import-jobs.service.js';
export { JOB_SOURCES, SOURCE_NAMES } from './import-source.js';
export type { ImportJob, NewCsvImportJob, NewImportJob };

export function createImportsService(
  deps: Parameters<typeof createImportJobsService>[0] & {
    organizations: { get(id: number): Promise<Organization | undefined> };
  },
) {
  const jobs = createImportJobsService(deps);
  // The operator acts for the whole organization, as a Service API key does: no role to check.
  const asOperator = async (organizationId: number) => ({
    organization: existingOrganization(await deps.organizations.get(organizationId), organizationId),
  });
  return {
    jobs,
    operator: {
      start: async (organizationId: number, input: NewImportJob) => jobs.start(await asOperator(organizationId), input),
      startCsv: async (organizationId: number, input: NewCsvImportJob) =>
        jobs.startCsv(await asOperator(organizationId), input),
      list: async (organizationId: number, page: Page) => jobs.list(await asOperator(organizationId), page),
      get: async (organizationId: number, id: number) => jobs.get(await asOperator(organizationId), id),
      cancel: async (organizationId: number, id: number) => jobs.cancel(await asOperator(organizationId), id),
    },
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
