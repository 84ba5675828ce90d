// Applies sql/clickhouse migrations once each, recorded in a schema_migrations table of the
// ClickHouse database. The caller holds the PostgreSQL migration lock, so instances never race.
import path from 'node:path';
import type { Logger } from '../shared/logger.js';
import { readMigrationFiles, splitStatements, sqlRoot } from '../shared/migration-files.js';
import type { ClickHouseClient } from './clickhouse.js';

export async function migrateClickhouse(
  client: ClickHouseClient,
  log: Logger,
  dir = path.join(sqlRoot, 'clickhouse'),
): Promise<number[]> {
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS schema_migrations (
      version UInt32, name String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3)
    ) ENGINE = ReplacingMergeTree ORDER BY version`,
  });
  const result = await client.query({ query: 'SELECT version FROM schema_migrations FINAL', format: 'JSONEachRow' });
  const done = new Set((await result.json<{ version: number }>()).map((r) => Number(r.version)));
  const applied: number[] = [];
  for (const m of readMigrationFiles(dir)) {
    if (done.has(m.version)) continue;
    // Statements are written idempotently (IF NOT EXISTS), so a half-applied file can run again.
    for (const statement of splitStatements(m.sql)) await client.command({ query: statement });
    await client.insert({
      table: 'schema_migrations',
      values: [{ version: m.version, name: m.name }],
      format: 'JSONEachRow',
    });
    applied.push(m.version);
    log.info({ version: m.version, migration: m.name }, 'applied ClickHouse migration');
  }
  return applied;
}
