// An import job as the Service API and the operator API show it (never its token), and the body
// that starts one. The rules (addresses, sources, the token's sealing) are the imports service's.
import { z } from 'zod';
import { type ImportJob, SOURCE_NAMES } from '../../core/imports/index.js';

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
    source: z.enum(SOURCE_NAMES),
    url: z.string().describe('the address the links are read from'),
    status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
    total: z.number().int().nullable().describe('links the source says it has; null until it says'),
    imported: z.number().int(),
    skipped: z.number().int().describe('imported by an earlier job of the same source'),
    failed: z.number().int(),
    errors: z
      .array(z.object({ sourceId: z.string(), message: z.string() }))
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
    source: job.source as z.infer<typeof importJobSchema>['source'],
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
