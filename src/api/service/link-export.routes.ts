// GET …/export: every link of the organization the list's filters match, as CSV a spreadsheet
// opens (a header row, then a row per link, streamed a thousand links at a time).
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Caller } from '../../core/caller.js';
import { csvRow } from '../../shared/csv.js';
import { callerOf } from '../request-caller.js';
import { asCsvFile, BYTE_ORDER_MARK } from '../csv-download.js';
import { commonErrorResponses } from '../schemas/common.js';

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

/** A CSV column: its header and the cell of a record. */
export type CsvColumn<R> = [header: string, cell: (record: R) => string | number | null];

/** What every exported link has, whichever its kind. */
interface ExportedLink {
  tags: string[];
  clickCount: number;
  createdAt: Date;
  expiresAt: Date | null;
  customDomainName: string | null;
  utmSource: string | null;
  utmMedium: string | null;
}

/** The columns short URLs and campaigns export alike, side by side in both files' order. */
export function sharedLinkColumns<R extends ExportedLink>(): CsvColumn<R>[] {
  return [
    ['tags', (l) => l.tags.join('|')],
    ['clickCount', (l) => l.clickCount],
    ['createdAt', (l) => l.createdAt.toISOString()],
    ['expiresAt', (l) => l.expiresAt?.toISOString() ?? null],
    ['customDomainName', (l) => l.customDomainName],
    ['utmSource', (l) => l.utmSource],
    ['utmMedium', (l) => l.utmMedium],
  ];
}

export function linkExportRoute<F extends z.ZodRawShape, R>(
  app: ZodApp,
  path: string,
  doc: { tags: string[]; security: Record<string, string[]>[]; many: string; filter: F; fileName: string },
  columns: CsvColumn<R>[],
  pages: (caller: Caller, filter: z.output<z.ZodObject<F>>) => AsyncGenerator<R[]>,
): void {
  app.get(
    path,
    {
      schema: {
        tags: doc.tags,
        security: doc.security,
        summary: `Export ${doc.many} as CSV`,
        description: `Every one the filters match (the list's filters), newest first. The first row names the columns: ${columns.map(([h]) => h).join(', ')}.`,
        querystring: z.object(doc.filter),
        produces: ['text/csv'],
        response: { 200: z.string().describe('CSV, UTF-8 with a byte-order mark'), ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const filter = request.query as z.output<z.ZodObject<F>>;
      const rows = pages(caller, filter);
      // The first page is read before answering, so a failure is still an error body, not a cut file.
      const first = await rows.next();
      async function* lines() {
        yield `${BYTE_ORDER_MARK}${csvRow(columns.map(([header]) => header))}`;
        let page = first;
        while (!page.done) {
          yield page.value.map((record) => csvRow(columns.map(([, cell]) => cell(record) ?? ''))).join('');
          page = await rows.next();
        }
      }
      return asCsvFile(reply, doc.fileName).send(Readable.from(lines()) as unknown as string);
    },
  );
}
