// Runs an operator's checked statement on ClickHouse read-only: readonly = 1 (no writes, no DDL, no
// table functions, no changing settings), a time limit, a row limit and a memory limit, and for one
// organization an additional filter on every table and view with an organization_id. The settings
// go in the statement's own SETTINGS clause: chDB would keep client-level settings for the session.
import type { Readable } from 'node:stream';
import { invalid } from '../shared/errors.js';
import { type ClickHouseClient, literal } from './clickhouse.js';

export const SQL_FORMATS = ['JSONEachRow', 'CSV', 'Parquet'] as const;
export type SqlFormat = (typeof SQL_FORMATS)[number];

/** Runs a checked statement read-only, within limits; a refusal by the engine is a DomainError. */
export interface ReadOnlyRunner {
  run(statement: string, options: { format: SqlFormat; organizationId?: number }): Promise<Readable>;
}

const READ_ONLY_LIMITS = { seconds: 30, rows: 1_000_000, memoryBytes: 2_000_000_000 };

/** ClickHouse's output formats for the formats offered (CSV with a header row). */
const OUTPUT: Record<SqlFormat, string> = { JSONEachRow: 'JSONEachRow', CSV: 'CSVWithNames', Parquet: 'Parquet' };

/** Codes of refusals a person can act on, as the API's own codes. */
const REFUSALS: Record<string, string> = {
  '164': 'SQL_NOT_READ_ONLY', // READONLY
  '159': 'SQL_TIMEOUT', // TIMEOUT_EXCEEDED
  '396': 'SQL_RESULT_TOO_LARGE', // TOO_MANY_ROWS_OR_BYTES
  '241': 'SQL_MEMORY_LIMIT', // MEMORY_LIMIT_EXCEEDED
};

export function createReadOnlyRunner(client: ClickHouseClient): ReadOnlyRunner {
  /** Tables and views of the database with an organization_id column. */
  async function tenantTables(): Promise<string[]> {
    const result = await client.query({
      query:
        "SELECT DISTINCT table FROM system.columns WHERE database = currentDatabase() AND name = 'organization_id' ORDER BY table",
      format: 'JSONEachRow',
    });
    return (await result.json<{ table: string }>()).map((r) => r.table);
  }

  return {
    async run(statement, { format, organizationId }) {
      const settings = [
        'readonly = 1',
        `max_execution_time = ${READ_ONLY_LIMITS.seconds}`,
        `max_result_rows = ${READ_ONLY_LIMITS.rows}`,
        "result_overflow_mode = 'throw'",
        `max_memory_usage = ${READ_ONLY_LIMITS.memoryBytes}`,
      ];
      if (organizationId !== undefined) {
        const filters = (await tenantTables()).map(
          (t) => `${literal(t)}: ${literal(`organization_id = ${organizationId}`)}`,
        );
        settings.push(`additional_table_filters = {${filters.join(', ')}}`);
      }
      try {
        const result = await client.exec({
          query: `${statement}\nSETTINGS ${settings.join(', ')}\nFORMAT ${OUTPUT[format]}`,
        });
        return result.stream as Readable;
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        // The engine's refusals carry a numeric code; anything else (the server away) is not the query's fault.
        if (typeof code !== 'string' || !/^\d+$/.test(code)) throw err;
        throw invalid(
          REFUSALS[code] ?? 'SQL_REFUSED',
          `ClickHouse refused the query: ${String((err as Error).message)
            .replace(/\s+/g, ' ')
            .slice(0, 500)}`,
          { clickhouseCode: Number(code) },
        );
      }
    },
  };
}
