// Inserts event rows into ClickHouse with an insert deduplication token, so a repeated batch is
// dropped by the engine itself (tables set non_replicated_deduplication_window).
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { chTime, type EventRow, type RowSink, type WrittenQuery } from '../shared/event-rows.js';
import { type ClickHouseClient, literal } from './clickhouse.js';

/** Rows serialised per this many, with a turn of the event loop between: redirects wait less. */
const ROWS_PER_CHUNK = 500;

/** JSONEachRow text in chunks; a second of clicks is thousands of rows. */
async function* jsonLines(rows: EventRow[]): AsyncGenerator<string> {
  for (let start = 0; start < rows.length; start += ROWS_PER_CHUNK) {
    if (start > 0) await yieldToLoop();
    const end = Math.min(rows.length, start + ROWS_PER_CHUNK);
    let text = '';
    for (let i = start; i < end; i++) text += `${JSON.stringify(rows[i])}\n`;
    yield text;
  }
}


export function createRowSink(client: ClickHouseClient): RowSink {
  return {
    async insert(table: string, rows: EventRow[], dedupToken: string): Promise<void> {
      if (rows.length === 0) return;
      // The token goes in the statement's own SETTINGS clause, not in clickhouse_settings: the chDB
      // connection turns clickhouse_settings into session-wide SETs, so a token given there stays
      // on the session and silently drops every later insert into the table that carries none.
      const result = await client.exec({
        query: `INSERT INTO ${table} SETTINGS insert_deduplicate = 1, insert_deduplication_token = ${literal(dedupToken)} FORMAT JSONEachRow`,
        values: Readable.from(jsonLines(rows)),
      });
      // Read the (empty) answer to the end so an HTTP connection goes back to the pool.
      await finished(result.stream.resume());
    },

    async written(table: string, q: WrittenQuery): Promise<Set<string>> {
      if (q.eventIds.length === 0) return new Set();
      // Every event table starts its key with organization_id and is partitioned by month of ts.
      const result = await client.query({
        query: `SELECT DISTINCT toString(event_id) AS id FROM ${table}
                WHERE organization_id IN {orgs:Array(UInt64)}
                  AND ts BETWEEN {from:DateTime64(3, 'UTC')} AND {to:DateTime64(3, 'UTC')}
                  AND event_id IN {ids:Array(UUID)}`,
        query_params: { orgs: q.organizationIds, from: chTime(q.fromMs), to: chTime(q.toMs), ids: q.eventIds },
        format: 'JSONEachRow',
      });
      return new Set((await result.json<{ id: string }>()).map((r) => r.id));
    },
  };
}
