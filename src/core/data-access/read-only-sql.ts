// The operator's read-only window on ClickHouse (POST /api/admin/v1/sql, `signpost sql`), for the
// embedded engine that no client can connect to: one statement that only reads, answered as
// JSONEachRow, CSV or Parquet. The statement is checked here (one statement, a reading kind, no
// SETTINGS, FORMAT or INTO OUTFILE of its own); the engine then runs it with readonly = 1 and
// limits (olap/read-only-sql.ts), which refuses writes, DDL and table functions whatever the text.
import type { Readable } from 'node:stream';
import type { ReadOnlyRunner, SqlFormat } from '../../olap/read-only-sql.queries.js';
import { invalid } from '../../shared/errors.js';

export { SQL_FORMATS, type SqlFormat } from '../../olap/read-only-sql.queries.js';

export interface ReadOnlyQuery {
  query: string;
  format: SqlFormat;
  /** Only this organization's rows, in every table and view that has an organization_id. */
  organizationId?: number;
}

const READING = new Set(['SELECT', 'WITH', 'SHOW', 'DESCRIBE', 'DESC', 'EXPLAIN', 'EXISTS']);

/**
 * The statement with string literals, quoted names and comments blanked, so the checks below
 * see only its own words: a 'SETTINGS' inside a string or a column called `format` is no clause.
 */
function skeleton(sql: string): string {
  let out = '';
  for (let i = 0; i < sql.length; ) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (c === "'" || c === '"' || c === '`') {
      // Up to the closing quote; a backslash escapes the next character, a doubled quote is one.
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === '\\') j += 2;
        else if (sql[j] === c && sql[j + 1] === c) j += 2;
        else if (sql[j] === c) break;
        else j++;
      }
      out += c === "'" ? "''" : 'x';
      i = j + 1;
    } else if ((c === '-' && next === '-') || c === '#') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
      out += ' ';
    } else if (c === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
      out += ' ';
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The statement to run, without a trailing semicolon; refuses anything that is not one reading statement. */
function readOnlyStatement(query: string): string {
  const statement = query.trim().replace(/;\s*$/, '').trim();
  const words = skeleton(statement);
  if (words.trim() === '') throw invalid('SQL_EMPTY', 'the query is empty');
  if (words.includes(';'))
    throw invalid('SQL_MULTIPLE_STATEMENTS', 'one statement at a time: the query holds a ";" between statements');
  const first = /^\s*\(*\s*([A-Za-z]+)/.exec(words)?.[1]?.toUpperCase() ?? '';
  if (!READING.has(first)) {
    throw invalid(
      'SQL_NOT_READ_ONLY',
      `only reading statements run here (SELECT, WITH, SHOW, DESCRIBE, EXPLAIN, EXISTS); ${first || 'this'} is refused, as is anything that writes, alters or administers`,
    );
  }
  // The clauses themselves (SETTINGS name = …, FORMAT Name at the end), not the words: system.settings
  // and a column called format stay readable.
  const clause = /\b(SETTINGS)\s+\w+\s*=|\b(FORMAT)\s+\w+\s*(?:$|\bSETTINGS\b)|\b(INTO\s+OUTFILE)\b/i
    .exec(words)
    ?.slice(1)
    .find(Boolean);
  if (clause) {
    throw invalid(
      'SQL_CLAUSE_NOT_ALLOWED',
      `${clause.toUpperCase().replace(/\s+/g, ' ')} is set by the service: choose the output with the format field (JSONEachRow, CSV or Parquet)`,
    );
  }
  return statement;
}

export function createReadOnlySql(deps: { runner: ReadOnlyRunner }) {
  return {
    /** The answer as a stream in the format asked for. */
    run(input: ReadOnlyQuery): Promise<Readable> {
      const statement = readOnlyStatement(input.query);
      return deps.runner.run(statement, {
        format: input.format,
        ...(input.organizationId === undefined ? {} : { organizationId: input.organizationId }),
      });
    },
  };
}

export type ReadOnlySql = ReturnType<typeof createReadOnlySql>;
