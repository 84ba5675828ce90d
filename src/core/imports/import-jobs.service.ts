// An organization's import jobs: start one (the source, its address, the person's token, sealed at
// once), list them, read one, cancel one. The work itself is the runner's, in the background.
import { createHash } from 'node:crypto';
import type { ImportJob, ImportJobsRepo } from '../../oltp/import-jobs.repo.js';
import { notFound } from '../../shared/errors.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { type Resolve, validateWebhookUrl } from '../../shared/webhook-url.js';
import { authorize } from '../accounts/permissions.js';
import type { Caller } from '../caller.js';
import { invalidField } from '../field-error.js';
import type { Page } from '../links/tracked-links.js';
import { readCsvFile } from './csv-file.js';
import { importUrlProblem } from './guarded-get.js';
import { SOURCE_LABELS, type SourceName, type SourceOptions } from './import-source.js';
import { SOURCES } from './source-registry.js';
import type { CsvJobOptions } from './sources/csv.js';

export type { ImportJob };

export interface NewImportJob extends SourceOptions {
  source: SourceName;
  token: string;
  /** The service's address; the SaaS services' own when left out. */
  url?: string | undefined;
}

/** The most rows a CSV job takes (its bytes are capped by the route's body limit). */
export const MAX_CSV_JOB_ROWS = 500_000;
/** Rows stored together, and so read and created together: one page of the job. */
const CSV_ROWS_PER_PAGE = 1_000;

export interface NewCsvImportJob {
  csv: string;
  /** The file's name, shown as where the links came from. */
  fileName?: string | undefined;
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

    /** A CSV file's links, in the background: the rows are stored with the job, checked as a whole now and each as it is created. */
    async startCsv(caller: ImportCaller, input: NewCsvImportJob): Promise<ImportJob> {
      authorize(caller, 'links.write');
      const { fields, rows } = readCsvFile(
        input.csv,
        MAX_CSV_JOB_ROWS,
        (n) =>
          `has ${n.toLocaleString('en')} rows; an import job takes at most ${MAX_CSV_JOB_ROWS.toLocaleString('en')}: split the file`,
      );
      const entries: Array<{ firstRow: number; rows: string[][] }> = [];
      for (let at = 0; at < rows.length; at += CSV_ROWS_PER_PAGE)
        entries.push({ firstRow: at + 1, rows: rows.slice(at, at + CSV_ROWS_PER_PAGE) });
      const options: CsvJobOptions = {
        fields: JSON.stringify(fields.map((f) => f ?? null)),
        fileDigest: createHash('sha256').update(input.csv).digest('hex').slice(0, 32),
      };
      const job = await deps.repo.createWithRows(
        {
          organizationId: caller.organization.id,
          source: 'csv',
          baseUrl: input.fileName?.trim() || 'upload.csv',
          // A file needs no token; the column is kept for the services'.
          tokenSealed: deps.secretBox.seal(''),
          options: { ...options },
          total: rows.length,
        },
        entries,
      );
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
