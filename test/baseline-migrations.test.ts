// The migration files and the databases they make. A fresh start migrates each store to exactly
// the schema of the snapshot in test/support/schema, which was written from the development
// migrations before they were squashed into one baseline per store: every table, column, type,
// default, constraint, index, comment, engine, order key, TTL, setting and view definition. A
// migration that changes the schema on purpose comes with a new snapshot:
// `npx tsx test/support/schema-snapshot.ts --write`. Then what the runners do with a database that
// a pre-release build migrated, and with a migration that fails. PGlite or PostgreSQL (services
// backend), and chDB; the runners' own files in temporary folders.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClickhouse } from '../src/olap/clickhouse.js';
import { migrateClickhouse } from '../src/olap/clickhouse-migrations.js';
import { migratePostgres, withMigrationLock } from '../src/oltp/postgres-migrations.js';
import { createPostgres } from '../src/oltp/postgres.js';
import { sqlRoot } from '../src/shared/migration-files.js';
import { backend } from './support/backend.js';
import { freshStores, migratedSchemas, schemaDifference, snapshotFiles } from './support/schema-snapshot.js';

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A folder of migration files. */
function migrations(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-migrations-'));
  tempDirs.push(dir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

describe(`the schema of a fresh start (${backend})`, () => {
  it('equals the snapshot in both stores', async () => {
    const schemas = await migratedSchemas();
    for (const store of ['postgres', 'clickhouse'] as const) {
      const snapshot = fs.readFileSync(snapshotFiles[store], 'utf8');
      expect(schemaDifference(snapshot, schemas[store]), store).toEqual([]);
    }
  }, 240_000);
});

describe(`the migration runners (${backend})`, () => {
  it('refuse a database migrated by a pre-release build, in both stores, and change nothing in it', async () => {
    const stores = await freshStores();
    const { log } = stores.postgres;
    try {
      // What a pre-release build recorded first: version 1 under another name.
      const pg = await createPostgres(stores.postgres);
      try {
        const old = migrations({ '0001_foundation.sql': 'create table organizations (id bigint primary key);' });
        await withMigrationLock(pg.sql, (tx) => migratePostgres(tx, log, old));
        await expect(withMigrationLock(pg.sql, (tx) => migratePostgres(tx, log))).rejects.toThrow(
          /PostgreSQL database records migration 1 as "foundation", but this version's is "baseline": .*pre-release build/,
        );
        const recorded = await pg.sql<{ name: string }[]>`select name from schema_migrations order by version`;
        expect(recorded.map((r) => r.name)).toEqual(['foundation']);
      } finally {
        await pg.close();
      }
      const ch = await createClickhouse(stores.clickhouse);
      try {
        const old = migrations({ '0001_api_requests.sql': 'CREATE TABLE IF NOT EXISTS t (a UInt8) ENGINE = Memory;' });
        await migrateClickhouse(ch.client, log, { dir: old });
        await expect(migrateClickhouse(ch.client, log)).rejects.toThrow(
          /ClickHouse database records migration 1 as "api_requests", but this version's is "baseline"/,
        );
        const tables = await (
          await ch.client.query({ query: 'SELECT name FROM system.tables WHERE database = currentDatabase()' })
        ).json<{ name: string }>();
        expect(tables.data.map((t) => t.name).sort()).toEqual(['schema_migrations', 't']);
      } finally {
        await ch.close();
      }
    } finally {
      await stores.dispose();
    }
  }, 240_000);

  it('apply a PostgreSQL migration whole or not at all, and run it again once it is fixed', async () => {
    const stores = await freshStores();
    const { log } = stores.postgres;
    const pg = await createPostgres(stores.postgres);
    try {
      const baseline = fs.readFileSync(path.join(sqlRoot, 'postgres', '0001_baseline.sql'), 'utf8');
      const broken = migrations({
        '0001_baseline.sql': baseline,
        '0002_next.sql': 'create table next_things (id bigint primary key);\nselect no_such_function();',
      });
      await expect(withMigrationLock(pg.sql, (tx) => migratePostgres(tx, log, broken))).rejects.toThrow(
        /no_such_function/,
      );
      // One transaction: not the baseline either, and no half of 0002.
      const [left] = await pg.sql<{ n: number }[]>`
        select count(*)::int as n from information_schema.tables
        where table_schema = 'public' and table_name in ('schema_migrations', 'organizations', 'next_things')`;
      expect(left!.n).toBe(0);
      const fixed = migrations({
        '0001_baseline.sql': baseline,
        '0002_next.sql': 'create table next_things (id bigint primary key);',
      });
      expect(await withMigrationLock(pg.sql, (tx) => migratePostgres(tx, log, fixed))).toEqual([1, 2]);
      expect(await withMigrationLock(pg.sql, (tx) => migratePostgres(tx, log, fixed))).toEqual([]);
    } finally {
      await pg.close();
      await stores.dispose();
    }
  }, 240_000);
});
