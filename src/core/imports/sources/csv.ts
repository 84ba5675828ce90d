// A CSV job's source: the file's rows as the job stored them (import_job_rows), a stored run of
// rows per page, read from the job's cursor (the number of the next data row), so a restart goes
// on where the last saved page ended. A row is known by its alias when it has one, else by the
// file (its digest) and its row number: the same file imported again, or a file whose aliased rows
// were imported before, brings nothing twice.
import type { ImportJob } from '../../../oltp/import-jobs.repo.js';
import { parseDate } from '../source-answer.js';
import { csvItem, type CsvFile } from '../csv-file.js';
import type { ImportedLink, ImportSource } from '../import-source.js';

/** What a CSV job keeps in its options: the header's fields and the file's digest. */
export interface CsvJobOptions {
  fields: string;
  fileDigest: string;
}

function toLink(fields: CsvFile['fields'], digest: string, row: number, cells: string[]): ImportedLink {
  const item = csvItem(fields, cells);
  const text = (name: string) => (typeof item[name] === 'string' ? (item[name] as string) : undefined);
  const alias = text('customAlias');
  const link: ImportedLink = {
    sourceId: alias === undefined ? `${digest}:${row}` : `alias:${alias}`,
    row,
    originalUrl: text('url') ?? '',
    ...(alias === undefined ? {} : { customAlias: alias }),
    title: text('title') ?? null,
    tags: Array.isArray(item.tags) ? item.tags : [],
    note: text('note') ?? null,
  };
  if (link.originalUrl === '') return { ...link, refused: 'it has no originalUrl (or url, long_url)' };
  const expiry = text('expirationDate');
  if (expiry === undefined) return link;
  const expiresAt = parseDate(expiry);
  return expiresAt ? { ...link, expiresAt } : { ...link, refused: `expirationDate ${expiry} is not a date` };
}

export function createCsvSource(
  job: Pick<ImportJob, 'id' | 'options' | 'total'>,
  rowsAt: (jobId: number, firstRow: number) => Promise<string[][] | undefined>,
): ImportSource {
  const fields = (JSON.parse(job.options.fields ?? '[]') as Array<string | null>).map((f) => f ?? undefined);
  const digest = job.options.fileDigest ?? String(job.id);
  return {
    name: 'csv',
    async fetchPage(cursor) {
      const first = cursor === null ? 1 : Number(cursor);
      const rows = (await rowsAt(job.id, first)) ?? [];
      const next = first + rows.length;
      return {
        links: rows.map((cells, n) => toLink(fields, digest, first + n, cells)),
        nextCursor: rows.length === 0 || (job.total !== null && next > job.total) ? null : String(next),
        ...(job.total === null ? {} : { total: job.total }),
      };
    },
  };
}
