// An organization's import jobs: start one (the source, its address, the person's token, sealed at
// once), list them, read one, cancel one. The work itself is the runner's, in the background.
import type { ImportJob, ImportJobsRepo } from '../../oltp/import-jobs.repo.js';
import { notFound } from '../../shared/errors.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { type Resolve, validateWebhookUrl } from '../../shared/webhook-url.js';
import { authorize } from '../accounts/permissions.js';
import type { Caller } from '../caller.js';
import { invalidField } from '../field-error.js';
import type { Page } from '../links/tracked-links.js';
import { importUrlProblem } from './guarded-get.js';
import { SOURCE_LABELS, type SourceName, type SourceOptions } from './import-source.js';
import { SOURCES } from './source-registry.js';

export type { ImportJob };

export interface NewImportJob extends SourceOptions {
  source: SourceName;
  token: string;
  /** The service's address; the SaaS services' own when left out. */
  url?: string | undefined;
}

/** Who asks: the organization, and the member whose role limits it on the console. */
type ImportCaller = Pick<Caller, 'member'> & { organization: { id: number } };

export function createImportJobsService(deps: {
  repo: ImportJobsRepo;
  secretBox: SecretBox;
  resolve: Resolve;
  allowInsecure: boolean;
  /** A job was queued: look for work now rather than at the next poll. */
  nudge(): void;
}) {
  const missing = (id: number) => notFound('IMPORT_JOB_NOT_FOUND', `import job ${id} does not exist`);

  return {
    async start(caller: ImportCaller, input: NewImportJob): Promise<ImportJob> {
      authorize(caller, 'links.write');
      const url = input.url ?? SOURCES[input.source].defaultUrl;
      if (url === undefined) {
        throw invalidField(
          'url',
          `is required: ${SOURCE_LABELS[input.source]} runs on your own server, give its address`,
        );
      }
      const checked = await validateWebhookUrl(url, { allowInsecure: deps.allowInsecure, resolve: deps.resolve });
      if (!checked.ok) throw invalidField('url', importUrlProblem(checked));
      const options: Record<string, string> = {};
      if (input.groupId) options.groupId = input.groupId;
      if (input.workspaceId) options.workspaceId = input.workspaceId;
      const job = await deps.repo.create({
        organizationId: caller.organization.id,
        source: input.source,
        baseUrl: checked.url.href,
        tokenSealed: deps.secretBox.seal(input.token),
        options,
      });
      deps.nudge();
      return job;
    },

    async list(caller: ImportCaller, page: Page): Promise<{ items: ImportJob[]; total: number }> {
      authorize(caller, 'links.read');
      return deps.repo.list(caller.organization.id, page);
    },

    async get(caller: ImportCaller, id: number): Promise<ImportJob> {
      authorize(caller, 'links.read');
      return (await deps.repo.get(caller.organization.id, id)) ?? Promise.reject(missing(id));
    },

    /** Stops a queued or running job (the links imported so far stay); an ended job is answered as it is. */
    async cancel(caller: ImportCaller, id: number): Promise<ImportJob> {
      authorize(caller, 'links.write');
      return (await deps.repo.cancel(caller.organization.id, id)) ?? Promise.reject(missing(id));
    },
  };
}
