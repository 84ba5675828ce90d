// Small helpers every repository needs: recognising constraint violations, escaping LIKE terms,
// reading a statement's first row or a page of rows as records.

/** True when `err` is PostgreSQL's unique violation, optionally of one named constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint_name?: string; constraint?: string };
  if (e?.code !== '23505') return false;
  return constraint === undefined || e.constraint_name === constraint || e.constraint === constraint;
}

/** `%` and `_` in a search term are literal characters, not wildcards. */
function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A case-insensitive substring pattern for `lower(column) like`. */
export const containsPattern = (term: string) => `%${escapeLike(term.toLowerCase())}%`;

/**
 * The SET part of an update from a patch: only fields present (not undefined) and only columns of
 * the closed allow-list, so a request can never name a column.
 */
export function patchColumns<F extends string>(
  patch: Partial<Record<F, unknown>>,
  columns: Record<F, string>,
): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const field of Object.keys(columns) as F[]) {
    const value = patch[field];
    if (value !== undefined) set[columns[field]] = value;
  }
  return set;
}

/** Which page of a listing to read: `size` records after the first `page * size`. */
export interface PageRequest {
  page: number;
  size: number;
}

/** The record of a statement's first row; undefined when it returned none. */
export async function firstOf<Row, R>(rows: Promise<Row[]>, toRecord: (row: Row) => R): Promise<R | undefined> {
  const [row] = await rows;
  return row === undefined ? undefined : toRecord(row);
}

/** A page of records and how many there are in all: the two queries run at once. */
export async function pageOf<Row, R>(
  rows: Promise<Row[]>,
  count: Promise<{ n: number }[]>,
  toRecord: (row: Row) => R,
): Promise<{ items: R[]; total: number }> {
  const [found, [counted]] = await Promise.all([rows, count]);
  return { items: found.map(toRecord), total: counted!.n };
}

export interface InputFault {
  code: string;
  message: string;
}

/**
 * When PostgreSQL refused a statement for a value it was given (SQLSTATE class 22, data exception,
 * or 54000 for a value too large to index or store), what to tell the caller; undefined for every
 * other failure, which stays a 500. Follows `cause` a few levels, for errors wrapped on the way up.
 */
export function inputFaultOf(err: unknown): InputFault | undefined {
  let e = err as { name?: string; code?: unknown; message?: unknown; cause?: unknown } | undefined;
  for (let level = 0; level < 4 && e && typeof e === 'object'; level++, e = e.cause as typeof e) {
    // postgres.js names its server errors PostgresError; their code is the five-character SQLSTATE.
    if (e.name !== 'PostgresError' || typeof e.code !== 'string') continue;
    const sqlstate = e.code;
    if (sqlstate === '22021' || sqlstate === '22P05')
      return {
        code: 'INVALID_TEXT',
        message: 'a text value in the request cannot be stored (invalid or control characters)',
      };
    if (sqlstate === '22001') return { code: 'VALUE_TOO_LONG', message: 'a value in the request is too long' };
    if (sqlstate === '22003') return { code: 'VALUE_OUT_OF_RANGE', message: 'a number in the request is out of range' };
    if (sqlstate === '22007' || sqlstate === '22008')
      return { code: 'INVALID_DATE_TIME', message: 'a date or time in the request is not valid or out of range' };
    if (sqlstate.startsWith('22')) return { code: 'INVALID_VALUE', message: 'a value in the request is not valid' };
    // 54000 also covers limits of the statement itself; only size-of-a-value ones are the input's.
    if (sqlstate === '54000' && /too long|too large|exceeds|size/i.test(String(e.message))) {
      return { code: 'VALUE_TOO_LARGE', message: 'a value in the request is too large to store' };
    }
  }
  return undefined;
}
