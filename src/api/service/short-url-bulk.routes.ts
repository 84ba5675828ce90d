// Service API: short URLs many at a time. POST, PATCH and DELETE /urls/bulk (up to 1,000 items,
// each answered on its own: the valid ones are done even when others are refused), the CSV export
// and the CSV import (up to 10,000 rows; every valid row is created).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Caller } from '../../core/caller.js';
import type { Expiry } from '../../core/links/link-rules.js';
import type { NewShortUrl, ShortUrl, ShortUrlService } from '../../core/links/short-urls.js';
import { csvItem, readCsvFile } from '../../core/imports/csv-file.js';
import { MAX_CSV_JOB_ROWS } from '../../core/imports/index.js';
import { MAX_CSV_JOB_BYTES } from '../schemas/import-job.js';
import { DomainError, isDomainError } from '../../shared/errors.js';
import { httpStatusOf } from '../error-handler.js';
import { callerOf } from '../request-caller.js';
import { commonErrorResponses, errorBodySchema } from '../schemas/common.js';
import { idempotencyHeaders, sendOnce } from '../idempotency.js';
import type { IdempotencyService } from '../../core/links/idempotency.service.js';
import { fromRequestPart } from '../schemas/field-errors.js';
import { clearable, expiryFor } from '../schemas/link.js';
import { tagNameSchema } from '../schemas/link-management.js';
import { type CsvColumn, linkExportRoute, sharedLinkColumns } from './link-export.routes.js';

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];
type Counted = ShortUrl & { clickCount: number };

const MAX_BULK_ITEMS = 1_000;
const MAX_IMPORT_ROWS = 10_000;
const MAX_IMPORT_BYTES = 16 * 1024 * 1024;

const itemErrorSchema = z
  .object({ status: z.number().int(), message: z.string() })
  .meta({ id: 'BulkItemError', description: 'why one item was refused: the HTTP status it would have had alone' });

const idsSchema = z
  .array(z.number().int().positive())
  .min(1, 'must name at least one link')
  .max(MAX_BULK_ITEMS, `must name at most ${MAX_BULK_ITEMS} links`)
  .refine((ids) => new Set(ids).size === ids.length, 'must not name a link twice');

/** An item's refusal as the answer shows it. */
const refusal = (err: DomainError) => ({ error: { status: httpStatusOf(err), message: err.message } });

/** The zod issues of one item, as one message naming each field after `prefix` (`items.3.url: …`, `row 3: url: …`). */
const issuesMessage = (prefix: string, error: z.ZodError) =>
  error.issues
    .slice(0, 5)
    .map((i) => `${prefix}${i.path.join('.')}: ${i.message}`)
    .join('; ');

export function shortUrlBulkRoutes<B extends z.ZodType>(
  app: ZodApp,
  options: {
    idempotency: IdempotencyService;
    tags: string[];
    security: Record<string, string[]>[];
    shortUrls: ShortUrlService;
    item: z.ZodType;
    filter: z.ZodRawShape;
    createBody: B;
    newShortUrl: (caller: Caller, body: z.output<B>) => NewShortUrl;
    toJson: (u: Counted) => unknown;
    expiration: z.ZodType<Expiry, string>;
    clock: () => Date;
  },
): void {
  const { tags, security, shortUrls, toJson } = options;
  const doc = { tags, security };

  /** Creates the items that parse; each answers its record or its refusal, in the items' order. */
  async function createItems(caller: Caller, items: unknown[], where: (n: number) => string) {
    const results: Array<{ error: { status: number; message: string } } | unknown> = new Array(items.length);
    const accepted: Array<{ at: number; input: NewShortUrl }> = [];
    items.forEach((item, at) => {
      const parsed = options.createBody.safeParse(item);
      if (!parsed.success) {
        results[at] = { error: { status: 400, message: issuesMessage(where(at), parsed.error) } };
        return;
      }
      try {
        accepted.push({ at, input: options.newShortUrl(caller, parsed.data) });
      } catch (err) {
        if (!isDomainError(err)) throw err;
        results[at] = {
          error: { status: httpStatusOf(err), message: `${where(at)}${err.message.replace(/^body\./, '')}` },
        };
      }
    });
    const created = await shortUrls.createMany(
      caller,
      accepted.map((a) => a.input),
    );
    created.forEach((r, n) => {
      results[accepted[n]!.at] = 'error' in r ? refusal(r.error) : toJson(r);
    });
    return results;
  }

  app.post(
    '/urls/bulk',
    {
      schema: {
        ...doc,
        summary: `Create up to ${MAX_BULK_ITEMS} short URLs`,
        description:
          'Each item is a create body. The answer lists, in the order of the items, each created record or `{error: {status, message}}` for an item that was refused; the valid items are created even when others are refused.',
        headers: idempotencyHeaders,
        body: z.object({
          items: z
            .array(z.unknown())
            .min(1, 'must hold at least one item')
            .max(MAX_BULK_ITEMS, `must hold at most ${MAX_BULK_ITEMS} items`),
        }),
        response: {
          200: z
            .object({ results: z.array(z.union([options.item, z.object({ error: itemErrorSchema })])) })
            .meta({ id: 'BulkCreateResult' }),
          ...commonErrorResponses,
          422: errorBodySchema,
        },
      },
    },
    async (request, reply) =>
      sendOnce(request, reply, options.idempotency, 'createShortUrls', 200, async () => ({
        results: await createItems(callerOf(request), request.body.items, (n) => `items.${n}.`),
      })),
  );

  app.patch(
    '/urls/bulk',
    {
      schema: {
        ...doc,
        summary: `Change up to ${MAX_BULK_ITEMS} short URLs at once`,
        description:
          'Adds and takes off tags, sets or clears the expiry, archives or restores. Each id answers its record as it is afterwards, or `{id, error}`.',
        body: z.object({
          ids: idsSchema,
          addTags: z.array(tagNameSchema).max(20, 'must hold at most 20 tags').optional(),
          removeTags: z.array(tagNameSchema).max(20, 'must hold at most 20 tags').optional(),
          expirationDate: clearable(options.expiration),
          archived: z.boolean().optional(),
        }),
        response: {
          200: z
            .object({
              results: z.array(z.union([options.item, z.object({ id: z.number().int(), error: itemErrorSchema })])),
            })
            .meta({ id: 'BulkUpdateResult' }),
          ...commonErrorResponses,
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { ids, addTags, removeTags, expirationDate, archived } = request.body;
      const expiresAt = expiryFor(caller, 'expirationDate', expirationDate, options.clock);
      const results = await fromRequestPart(
        'body',
        shortUrls.updateMany(caller, ids, { addTags, removeTags, expiresAt, archived }),
      );
      return { results: results.map((r, n) => ('error' in r ? { id: ids[n]!, ...refusal(r.error) } : toJson(r))) };
    },
  );

  app.delete(
    '/urls/bulk',
    {
      schema: {
        ...doc,
        summary: `Delete up to ${MAX_BULK_ITEMS} short URLs`,
        description: 'Their codes stop resolving at once. Each id answers `{id, deleted: true}` or `{id, error}`.',
        body: z.object({ ids: idsSchema }),
        response: {
          200: z
            .object({
              results: z.array(
                z.union([
                  z.object({ id: z.number().int(), deleted: z.literal(true) }),
                  z.object({ id: z.number().int(), error: itemErrorSchema }),
                ]),
              ),
            })
            .meta({ id: 'BulkDeleteResult' }),
          ...commonErrorResponses,
        },
      },
    },
    async (request) => {
      const { ids } = request.body;
      const results = await shortUrls.deleteMany(callerOf(request), ids);
      return { results: results.map((r, n) => ('error' in r ? { id: ids[n]!, ...refusal(r.error) } : r)) };
    },
  );

  const columns: CsvColumn<Counted>[] = [
    ['shortUrl', (u) => (toJson(u) as { shortUrl: string }).shortUrl],
    ['originalUrl', (u) => u.originalUrl],
    ['shortCode', (u) => u.shortCode],
    ['title', (u) => u.title],
    ...sharedLinkColumns(),
    ['utmCampaign', (u) => u.utmCampaign],
    ['passwordProtected', (u) => String(u.passwordHash !== null)],
    ['clickLimit', (u) => u.clickLimit],
    ['expiredUrl', (u) => u.expiredUrl],
    ['note', (u) => u.note],
    ['archived', (u) => String(u.archivedAt !== null)],
  ];
  linkExportRoute(
    app,
    '/urls/export',
    { ...doc, many: 'short URLs', filter: options.filter, fileName: 'short-urls.csv' },
    columns,
    (caller, filter) => shortUrls.export(caller, filter as Parameters<ShortUrlService['export']>[1]),
  );

  // Read up to a CSV job's size, so that a file too large for one call is refused naming the job.
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: MAX_CSV_JOB_BYTES }, (_request, body, done) =>
    Buffer.byteLength(body as string) > MAX_IMPORT_BYTES
      ? done(
          new DomainError(
            'too_large',
            'BODY_TOO_LARGE',
            `the file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB, the most one call takes: import it as a background job with POST /imports/csv (up to ${MAX_CSV_JOB_BYTES / 1024 / 1024} MB)`,
          ),
          undefined,
        )
      : done(null, body),
  );
  app.post(
    '/urls/import',
    {
      schema: {
        ...doc,
        summary: `Import up to ${MAX_IMPORT_ROWS.toLocaleString('en')} short URLs from CSV`,
        description:
          'Content-Type text/csv, UTF-8, a header row first. Columns: `originalUrl` (or `url`, `long_url`), and optionally `customAlias`, `title`, `tags` (separated by |), `expirationDate`, `note`; others are ignored. Every valid row is created; `errors` names each refused row by its number among the data rows (1: the first row after the header). A larger file: `POST /imports/csv`, an import job in the background.',
        consumes: ['text/csv'],
        body: z.string().describe('CSV'),
        response: {
          200: z
            .object({
              created: z.number().int(),
              failed: z.number().int(),
              errors: z.array(z.object({ row: z.number().int(), message: z.string() })),
            })
            .meta({ id: 'CsvImportResult' }),
          ...commonErrorResponses,
        },
      },
    },
    async (request) => {
      const { fields, rows } = readCsvFile(
        request.body,
        MAX_IMPORT_ROWS,
        (n) =>
          `has ${n.toLocaleString('en')} rows; at most ${MAX_IMPORT_ROWS.toLocaleString('en')} in one call: import a larger file (up to ${MAX_CSV_JOB_ROWS.toLocaleString('en')} rows) as a background job with POST /imports/csv`,
      );
      const items = rows.map((cells) => csvItem(fields, cells));
      const results = await createItems(callerOf(request), items, (n) => `row ${n + 1}: `);
      const errors = results.flatMap((r, n) =>
        r && typeof r === 'object' && 'error' in r
          ? [{ row: n + 1, message: (r as { error: { message: string } }).error.message }]
          : [],
      );
      return { created: results.length - errors.length, failed: errors.length, errors };
    },
  );
}
