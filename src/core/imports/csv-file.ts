// A CSV file of links as both CSV imports read it (the one-call POST /urls/import and the import
// job of POST /imports/csv): the header names the columns, each data row becomes a create body's
// fields. The checks of a file as a whole (a URL column, at least one row, at most so many) are
// here; each row's own are the create's.
import { parseCsv } from '../../shared/csv.js';
import { invalidBodyField } from '../field-error.js';

/** CSV import columns → create body fields (header names compared case-insensitively). */
const CSV_COLUMNS: Record<string, string> = {
  originalurl: 'url',
  url: 'url',
  long_url: 'url',
  customalias: 'customAlias',
  title: 'title',
  tags: 'tags',
  expirationdate: 'expirationDate',
  note: 'note',
};

export interface CsvFile {
  /** Each column's field, undefined for a column the import does not read. */
  fields: Array<string | undefined>;
  /** The data rows, after the header. */
  rows: string[][];
}

/**
 * The file's header and data rows; a file with no URL column, no rows or more than `maxRows` is
 * refused (`tooMany` words that refusal: where a larger file goes).
 */
export function readCsvFile(text: string, maxRows: number, tooMany: (rows: number) => string): CsvFile {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw invalidBodyField('', 'the CSV is empty: a header row and at least one row are needed');
  const fields = header.map((name) => CSV_COLUMNS[name.trim().toLowerCase()]);
  if (!fields.includes('url'))
    throw invalidBodyField('', 'the header row names no originalUrl, url or long_url column');
  if (rows.length === 0) throw invalidBodyField('', 'the CSV has a header row but no links');
  if (rows.length > maxRows) throw invalidBodyField('', tooMany(rows.length));
  return { fields, rows };
}

/** One data row as create body fields: empty cells left out, tags separated by `|`. */
export function csvItem(fields: CsvFile['fields'], cells: string[]): Record<string, string | string[]> {
  const item: Record<string, string | string[]> = {};
  fields.forEach((field, n) => {
    const value = cells[n]?.trim() ?? '';
    if (!field || value === '') return;
    item[field] =
      field === 'tags'
        ? value
            .split('|')
            .map((t) => t.trim())
            .filter(Boolean)
        : value;
  });
  return item;
}
