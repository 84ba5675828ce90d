// Applies sql/clickhouse migrations once each, recorded in a schema_migrations table of the
// ClickHouse database. The caller holds the PostgreSQL migration lock, so instances never race.
// Numbering and the refusal of a pre-release database: src/shared/migration-files.ts.
// On a cluster every statement, this table's too, runs as onCluster renders it (src/olap/cluster-ddl.ts).
import path from 'node:path';
import type { Logger } from '../shared/logger.js';
import { pendingMigrations, readMigrationFiles, splitStatements, sqlRoot } from '../shared/migration-files.js';
import type { ClickHouseClient } from './clickhouse.js';
import { onCluster } from './cluster-ddl.js';

/** The runner's own record of the files applied. */
export const SCHEMA_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
      version UInt32 COMMENT 'Migration number (the file name''s prefix)',
      name String COMMENT 'Migration name (the rest of the file name)',
      applied_at DateTime64(3, 'UTC') DEFAULT now64(3) COMMENT 'When it was applied, UTC'
    ) ENGINE = ReplacingMergeTree ORDER BY version
    COMMENT 'ClickHouse migrations applied, one row per file of sql/clickhouse. Internal.'`;

interface ClickhouseMigrationOptions {
  /** The folder of the migration files; default the repository's sql/clickhouse. */
  dir?: string;
  /** CLICKHOUSE_CLUSTER: run the DDL ON CLUSTER with replicated engines; unset: one server. */
  cluster?: string;
}

export async function migrateClickhouse(
  client: ClickHouseClient,
  log: Logger,
  { dir = path.join(sqlRoot, 'clickhouse'), cluster }: ClickhouseMigrationOptions = {},
): Promise<number[]> {
  await client.command({ query: onCluster(SCHEMA_MIGRATIONS_TABLE, cluster) });
  // The instance that migrated before us under the lock may have recorded its files on another
  // replica: fetch what it wrote before reading, or its files would run again here.
  if (cluster !== undefined) await client.command({ query: 'SYSTEM SYNC REPLICA schema_migrations' });
  const result = await client.query({
    query: 'SELECT version, name FROM schema_migrations FINAL',
    format: 'JSONEachRow',
  });
  const recorded = (await result.json<{ version: number; name: string }>()).map((r) => ({
    version: Number(r.version),
    name: r.name,
  }));
  const applied: number[] = [];
  for (const m of pendingMigrations('ClickHouse', readMigrationFiles(dir), recorded)) {
    // Statements are written idempotently (IF NOT EXISTS), so a half-applied file can run again.
    for (const statement of splitStatements(m.sql)) await client.command({ query: onCluster(statement, cluster) });
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
