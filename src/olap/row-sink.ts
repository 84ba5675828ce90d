// Inserts event rows into ClickHouse with an insert deduplication token, so a repeated batch is
// dropped by the engine itself (tables set non_replicated_deduplication_window).
import type { ClickHouseClient } from './clickhouse.js';

export function createRowSink(client: ClickHouseClient) {
  return {
    async insert(table: string, rows: Record<string, unknown>[], dedupToken: string): Promise<void> {
      if (rows.length === 0) return;
      await client.insert({
        table,
        values: rows,
        format: 'JSONEachRow',
        clickhouse_settings: { insert_deduplication_token: dedupToken, insert_deduplicate: 1 },
      });
    },
  };
}
