// Inserts event rows into ClickHouse with an insert deduplication token, so a repeated batch is
// dropped by the engine itself (tables set non_replicated_deduplication_window).
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ClickHouseClient } from './clickhouse.js';

/** A ClickHouse string literal. */
const literal = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export function createRowSink(client: ClickHouseClient) {
  return {
    async insert(table: string, rows: Record<string, unknown>[], dedupToken: string): Promise<void> {
      if (rows.length === 0) return;
      // The token goes in the statement's own SETTINGS clause, not in clickhouse_settings: the chDB
      // connection turns clickhouse_settings into session-wide SETs, so a token given there stays
      // on the session and silently drops every later insert into the table that carries none.
      const result = await client.exec({
        query: `INSERT INTO ${table} SETTINGS insert_deduplicate = 1, insert_deduplication_token = ${literal(dedupToken)} FORMAT JSONEachRow`,
        values: Readable.from([rows.map((row) => JSON.stringify(row)).join('\n')]),
      });
      // Read the (empty) answer to the end so an HTTP connection goes back to the pool.
      await finished(result.stream.resume());
    },
  };
}
