// An import job as the Service API and the operator API show it (never its token), and the body
// that starts one. The rules (addresses, sources, the token's sealing) are the imports service's.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type ImportJob,
  JOB_SOURCES,
  MAX_CSV_JOB_ROWS,
  type NewCsvImportJob,
  SOURCE_NAMES,
} from '../../core/imports/index.js';

export const IMPORTS_DOC =
  'Imports the links of another link service in the background: Bitly, Shlink, Kutt, YOURLS, Dub or Rebrandly. ' +
  'Each link keeps its code as the alias, its title, and its expiry where the service has one. A link imported before from the same source is skipped; one whose alias another link has is counted as failed, with the reason in errors. Passwords and click history are not carried over (docs/migrating.md).';

export const startImportBody = z
  .object({
    source: z.enum(SOURCE_NAMES),
    token: z
      .string()
      .trim()
      .min(1, 'is required')
      .max(2000, 'must be at most 2000 characters')
      .describe(
        "the service's API token: Bitly access token, Shlink API key, Kutt API key, YOURLS signature token, Dub API key, Rebrandly API key. Stored encrypted, never shown again",
      ),
    url: z
      .string()
      .trim()
      .max(2000, 'must be at most 2000 characters')
      .optional()
      .describe(
        "the service's address: required for Shlink and YOURLS (self-hosted), optional for the others (a self-hosted Kutt; defaults https://api-ssl.bitly.com, https://kutt.it, https://api.dub.co, https://api.rebrandly.com)",
      ),
    groupId: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe("Bitly: the group's GUID; the account's default group when left out"),
    workspaceId: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe('Dub, Rebrandly: the workspace to import from, where the token does not name one itself'),
  })
  .meta({ id: 'ImportJobRequest' });

export const importJobSchema = z
  .object({
    id: z.number().int(),
    source: z.enum(JOB_SOURCES).describe('csv: a file sent to POST /imports/csv'),
    url: z.string().describe("the address the links are read from; a CSV job's file name"),
    status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
    total: z
      .number()
      .int()
      .nullable()
      .describe("links the source says it has (a CSV job: the file's rows); null until it says"),
    imported: z.number().int(),
    skipped: z.number().int().describe('imported by an earlier job of the same source'),
    failed: z.number().int(),
    errors: z
      .array(
        z.object({
          sourceId: z.string(),
          message: z.string(),
          row: z.number().int().optional().describe("a CSV job's data row (1: the first row after the header)"),
        }),
      )
      .describe('why links failed: the first 100'),
    failure: z.string().nullable().describe('why the whole job failed (a refused token, the service unreachable)'),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
  })
  .meta({ id: 'ImportJob' });

export function toImportJobJson(job: ImportJob): z.infer<typeof importJobSchema> {
  return {
    id: job.id,
    source: job.source as (typeof JOB_SOURCES)[number],
    url: job.baseUrl,
    status: job.status,
    total: job.total,
    imported: job.imported,
    skipped: job.skipped,
    failed: job.failed,
    errors: job.errors,
    failure: job.failure,
    createdAt: job.createdAt.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
  };
}

/** The maximum size of a CSV job's file; a larger body is answered 413. */
export const MAX_CSV_JOB_BYTES = 50 * 1024 * 1024;

const CSV_JOB_DOC = `Imports the links of a CSV file in the background: the columns of \`POST /urls/import\` (\`originalUrl\` or \`url\`, \`long_url\`; optionally \`customAlias\`, \`title\`, \`tags\` separated by |, \`expirationDate\`, \`note\`), up to ${MAX_CSV_JOB_ROWS.toLocaleString('en')} rows and ${MAX_CSV_JOB_BYTES / 1024 / 1024} MB. The rows are stored with the job, so it resumes after a restart; the job's errors name each refused row (\`row\`: 1 is the first row after the header). A row is known by its alias, or by the file and its row number: importing the same file again brings nothing twice (counted as skipped).`;

const csvJobQuery = z.object({
  fileName: z.string().trim().min(1).max(200).optional().describe("the file's name, shown as the job's url"),
});

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

/**
 * The route that starts a CSV job (the Service API's and the operator's): text/csv up to a CSV
 * job's size (the plugin's own parser), answered 202 with the job. `start` gets the request, its
 * path parameters as `params` parsed them, and the file.
 */
export function csvJobRoute<P extends z.ZodType>(
  app: ZodApp,
  url: string,
  doc: { tags: string[]; security: Record<string, string[]>[]; summary: string; params?: P },
  errors: Record<number, z.ZodType>,
  start: (request: FastifyRequest, input: NewCsvImportJob & { params: z.output<P> }) => Promise<ImportJob>,
): void {
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: MAX_CSV_JOB_BYTES }, (_request, body, done) =>
    done(null, body),
  );
  app.post(
    url,
    {
      schema: {
        ...doc,
        description: CSV_JOB_DOC,
        consumes: ['text/csv'],
        querystring: csvJobQuery,
        body: z.string().describe('CSV'),
        response: { 202: importJobSchema, ...errors },
      },
    },
    async (request, reply) => {
      const input = { csv: request.body, fileName: request.query.fileName, params: request.params as z.output<P> };
      return reply.code(202).send(toImportJobJson(await start(request, input)));
    },
  );
}
