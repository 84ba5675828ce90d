// Applies sql/postgres migrations once each, recorded in schema_migrations. A transaction-scoped
// advisory lock makes concurrent starts of several instances safe: one migrates, the others wait
// and then find the work done. Everything runs on the lock's own transaction, which also keeps
// PGlite (a single connection) from waiting on itself. Numbering and the refusal of a pre-release
// database: src/shared/migration-files.ts.
import path from 'node:path';
import type { Logger } from '../shared/logger.js';
import { pendingMigrations, readMigrationFiles, sqlRoot } from '../shared/migration-files.js';
import type postgres from 'postgres';
import type { Sql } from './postgres.js';

/** "signpost" in ASCII as one 64-bit lock key, the same for every instance. */
const MIGRATION_LOCK_KEY = '8315172486262797172';

export type MigrationTx = postgres.TransactionSql<Record<string, never>>;

/** Runs `fn` in one transaction that holds the cluster-wide migration lock. */
export async function withMigrationLock<T>(sql: Sql, fn: (tx: MigrationTx) => Promise<T>): Promise<T> {
  return (await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY}::bigint)`;
    return fn(tx);
  })) as T;
}

export async function migratePostgres(
  tx: MigrationTx,
  log: Logger,
  dir = path.join(sqlRoot, 'postgres'),
): Promise<number[]> {
  await tx`
    create table if not exists schema_migrations (
      version integer primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`;
  const recorded = await tx<{ version: number; name: string }[]>`select version, name from schema_migrations`;
  const applied: number[] = [];
  for (const m of pendingMigrations('PostgreSQL', readMigrationFiles(dir), recorded)) {
    await tx.unsafe(m.sql);
    await tx`insert into schema_migrations (version, name) values (${m.version}, ${m.name})`;
    applied.push(m.version);
    log.info({ version: m.version, migration: m.name }, 'applied PostgreSQL migration');
  }
  return applied;
}
