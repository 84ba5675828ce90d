// A CSV file as a download, the same for every export: the content type, the name the browser
// saves it under, and a byte-order mark first, without which spreadsheet programs read UTF-8
// (Korean names, accents) as their local encoding.
import type { FastifyReply } from 'fastify';
import { toCsv } from '../shared/csv.js';

/** The reply with the headers of a CSV file saved as `fileName`; its body must start with BYTE_ORDER_MARK. */
export const asCsvFile = (reply: FastifyReply, fileName: string): FastifyReply =>
  reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`);

export const BYTE_ORDER_MARK = '\uFEFF';

/** Answers with `csv` as a file saved as `fileName`. */
export const sendCsv = (reply: FastifyReply, fileName: string, csv: string): FastifyReply =>
  asCsvFile(reply, fileName).send(`${BYTE_ORDER_MARK}${csv}`);

/** Columns after a table's own: their header and the cells of the i-th row. */
export interface MoreColumns {
  head: string[];
  cells: (i: number) => (string | number)[];
}

/** A column: one of the row's fields, headed by its name, or a header and the field it shows. */
export type FieldColumn<K extends string> = K | readonly [header: string, field: K];

/**
 * Rows as CSV whose columns are the rows' fields, headed by their names as the JSON answer has
 * them unless a column names its header, then `more` columns when given.
 */
export function fieldsCsv<K extends string>(
  columns: readonly FieldColumn<K>[],
  rows: readonly Record<K, string | number>[],
  more?: MoreColumns,
): string {
  const fields = columns.map((c) => (typeof c === 'string' ? c : c[1]));
  return toCsv(
    [...columns.map((c) => (typeof c === 'string' ? c : c[0])), ...(more?.head ?? [])],
    rows.map((row, i) => [...fields.map((f) => row[f]), ...(more?.cells(i) ?? [])]),
  );
}
