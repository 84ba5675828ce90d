// Inserts event rows into ClickHouse with an insert deduplication token, so a repeated batch is
// dropped by the engine itself (tables set non_replicated_deduplication_window), and keeps the
// record of insert groups (writer_insert_groups) the writer replays after a crash.
//
// deduplicate_blocks_in_dependent_materialized_views: without it, an insert repeated under its
// token after the raw rows went in but a view failed (a crash, a lost connection) writes the
// rollups again on every later repetition, so they count the batch twice or more while the raw
// table counts it once. With it, each rollup drops what it holds and writes what it lacks.
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { chTime, type EventRow, type RecordedGroup, type RowSink, type WrittenQuery } from '../shared/event-rows.js';
import { type Clickhouse, literal } from './clickhouse.js';

const DEDUPLICATE = { insert_deduplicate: 1, deduplicate_blocks_in_dependent_materialized_views: 1 };

const settingsClause = (settings: Record<string, number>) =>
  Object.entries(settings)
    .map(([name, value]) => `${name} = ${value}`)
    .join(', ');

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

/**
 * The same text as bytes, encoded chunk by chunk between turns of the event loop. Handed to the
 * embedded engine as one string, a second of clicks (11 MB) was flattened and encoded in one go
 * on the main thread: a 10 ms stall of every redirect, once a second.
 */
async function jsonLinesBuffer(rows: EventRow[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const text of jsonLines(rows)) chunks.push(Buffer.from(text, 'utf8'));
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

export function createRowSink({ client, insertRaw }: Pick<Clickhouse, 'client' | 'insertRaw'>): RowSink {
  return {
    async insert(table: string, rows: EventRow[], dedupToken: string): Promise<void> {
      if (rows.length === 0) return;
      if (insertRaw) {
        await insertRaw({
          table,
          format: 'JSONEachRow',
          payload: await jsonLinesBuffer(rows),
          settings: { ...DEDUPLICATE, insert_deduplication_token: dedupToken, date_time_input_format: 'best_effort' },
        });
        return;
      }
      // The token goes in the statement's own SETTINGS clause, not in clickhouse_settings: the chDB
      // connection turns clickhouse_settings into session-wide SETs, so a token given there stays
      // on the session and silently drops every later insert into the table that carries none.
      const result = await client.exec({
        query: `INSERT INTO ${table} SETTINGS ${settingsClause(DEDUPLICATE)}, insert_deduplication_token = ${literal(dedupToken)} FORMAT JSONEachRow`,
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

    async recordGroup(group: RecordedGroup): Promise<void> {
      await client.insert({
        table: 'writer_insert_groups',
        values: [{ message_ids: group.messageIds, left_out: group.leftOut }],
        format: 'JSONEachRow',
      });
    },

    async recordedGroups(messageIds: string[], sinceMs: number): Promise<RecordedGroup[]> {
      if (messageIds.length === 0) return [];
      const result = await client.query({
        query: `SELECT message_ids, left_out FROM writer_insert_groups
                WHERE recorded_at >= {since:DateTime64(3, 'UTC')} AND hasAny(message_ids, {ids:Array(String)})
                ORDER BY recorded_at DESC`,
        query_params: { since: chTime(sinceMs), ids: messageIds },
        format: 'JSONEachRow',
      });
      return (await result.json<{ message_ids: string[]; left_out: string[] }>()).map((r) => ({
        messageIds: r.message_ids,
        leftOut: r.left_out,
      }));
    },
  };
}
