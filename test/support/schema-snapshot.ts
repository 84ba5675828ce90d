// The schema a fresh start migrates each store to, as normalized text, and the snapshot of it that
// test/baseline-migrations.test.ts holds every change of sql/ against.
//
// PostgreSQL: tables, sequences, views, columns (order, type, null, default, identity), constraints,
// indexes, comments, functions and triggers, read from pg_catalog (the extensions' own objects left
// out). ClickHouse: every object's CREATE as system.tables gives it (engine, order key, TTL,
// settings, column and object comments, the views' queries), read after the engine was reopened,
// as every later start sees it.
//
// Run as a script it migrates a fresh pair of stores (PGlite and chDB, or the PostgreSQL server of
// SIGNPOST_TEST_BACKEND=services), then checks their schema against the snapshot, or writes the
// snapshot with --write:
//   npx tsx test/support/schema-snapshot.ts [--write]
// A new migration changes the schema on purpose: write the snapshot again and commit both.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { type ClickhouseOptions, createClickhouse, type ClickHouseClient } from '../../src/olap/clickhouse.js';
import { migrateClickhouse } from '../../src/olap/clickhouse-migrations.js';
import { createPostgres, type PostgresOptions, type Sql } from '../../src/oltp/postgres.js';
import { migratePostgres, withMigrationLock } from '../../src/oltp/postgres-migrations.js';
import { createLogger } from '../../src/shared/logger.js';
import { backend, servicesEnv } from './backend.js';

const snapshotDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'schema');
export const snapshotFiles = {
  postgres: path.join(snapshotDir, 'postgres.txt'),
  clickhouse: path.join(snapshotDir, 'clickhouse.txt'),
} as const;

export interface Schemas {
  postgres: string;
  clickhouse: string;
}

const lines = (rows: Record<string, unknown>[], format: (row: Record<string, unknown>) => string) =>
  rows.map(format).sort();

/** Every object of the public schema that a migration made, one line each, sorted. */
async function postgresSchema(sql: Sql): Promise<string> {
  // Objects that belong to an extension (pg_trgm's functions, operators, ...) are the extension's.
  const notExtension = (classid: string, oid: string) =>
    `not exists (select 1 from pg_depend d where d.classid = '${classid}'::regclass and d.objid = ${oid} and d.deptype = 'e')`;
  const sections: [string, string[]][] = [
    [
      'extensions',
      lines(await sql`select extname from pg_extension where extname <> 'plpgsql'`, (r) => `${r.extname}`),
    ],
    [
      'relations',
      lines(
        await sql.unsafe(`
          select c.relname, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
            and ${notExtension('pg_class', 'c.oid')}`),
        (r) => `${r.relkind} ${r.relname}`,
      ),
    ],
    [
      'columns',
      // The position among the live columns: a column added later comes last, as in the table.
      (
        await sql.unsafe(`
          select c.relname, a.attname, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull,
            pg_get_expr(d.adbin, d.adrelid) as default, a.attidentity, a.attgenerated,
            row_number() over (partition by c.oid order by a.attnum) as position
          from pg_attribute a
          join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
          left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
          where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f') and a.attnum > 0
            and not a.attisdropped and ${notExtension('pg_class', 'c.oid')}
          order by c.relname, a.attnum`)
      ).map(
        (r) =>
          `${r.relname}.${r.position} ${r.attname} ${r.type}${r.attnotnull ? ' not null' : ''}` +
          `${r.default === null ? '' : ` default ${r.default}`}` +
          `${r.attidentity ? ` identity ${r.attidentity}` : ''}${r.attgenerated ? ` generated ${r.attgenerated}` : ''}`,
      ),
    ],
    [
      // Not-null constraints too are rows of pg_constraint from PostgreSQL 18 (and PGlite) on: the
      // columns say it for every version.
      'constraints',
      lines(
        await sql.unsafe(`
          select c.relname, k.conname, pg_get_constraintdef(k.oid) as def
          from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and k.contype <> 'n'`),
        (r) => `${r.relname} ${r.conname}: ${r.def}`,
      ),
    ],
    [
      'indexes',
      lines(await sql`select indexdef from pg_indexes where schemaname = 'public'`, (r) =>
        `${r.indexdef}`.replaceAll(' public.', ' '),
      ),
    ],
    [
      'sequences',
      lines(
        await sql`
          select sequencename, data_type, start_value::text, min_value::text, max_value::text, increment_by::text, cycle,
            cache_size::text
          from pg_sequences where schemaname = 'public'`,
        (r) =>
          `${r.sequencename} ${r.data_type} start ${r.start_value} min ${r.min_value} max ${r.max_value}` +
          ` increment ${r.increment_by} cache ${r.cache_size}${r.cycle ? ' cycle' : ''}`,
      ),
    ],
    [
      'views',
      lines(
        await sql`select viewname, definition from pg_views where schemaname = 'public'`,
        (r) => `${r.viewname}: ${String(r.definition).replace(/\s+/g, ' ').trim()}`,
      ),
    ],
    [
      'comments',
      lines(
        await sql.unsafe(`
          select c.relname, a.attname, d.description
          from pg_description d join pg_class c on d.classoid = 'pg_class'::regclass and c.oid = d.objoid
          join pg_namespace n on n.oid = c.relnamespace
          left join pg_attribute a on a.attrelid = c.oid and a.attnum = d.objsubid and d.objsubid > 0
          where n.nspname = 'public' and ${notExtension('pg_class', 'c.oid')}`),
        (r) => `${r.relname}${r.attname ? `.${r.attname}` : ''}: ${r.description}`,
      ),
    ],
    [
      'functions',
      lines(
        await sql.unsafe(`
          select pg_get_functiondef(p.oid) as def from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = 'public' and ${notExtension('pg_proc', 'p.oid')}`),
        (r) => String(r.def).trim(),
      ),
    ],
    [
      'triggers',
      lines(
        await sql.unsafe(`
          select pg_get_triggerdef(t.oid) as def from pg_trigger t join pg_class c on c.oid = t.tgrelid
          join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and not t.tgisinternal`),
        (r) => `${r.def}`.replaceAll(' public.', ' '),
      ),
    ],
  ];
  return render(sections);
}

/** Every object of the client's database: its CREATE, with the database's name taken out. */
async function clickhouseSchema(client: ClickHouseClient, database: string): Promise<string> {
  const result = await client.query({
    query: `SELECT name, engine, create_table_query, comment FROM system.tables
            WHERE database = {database:String} ORDER BY name`,
    query_params: { database },
    format: 'JSONEachRow',
  });
  const rows = await result.json<{ name: string; engine: string; create_table_query: string; comment: string }>();
  const unqualified = (text: string) => text.replaceAll(`${database}.`, '');
  return render([
    ['objects', rows.map((r) => `${r.name} ${r.engine}: ${unqualified(r.create_table_query)}`)],
    ['comments', rows.map((r) => `${r.name}: ${r.comment}`)],
  ]);
}

function render(sections: [string, string[]][]): string {
  return `${sections.map(([title, items]) => `## ${title}\n${items.join('\n')}\n`).join('\n')}`;
}

export interface MigrationDirs {
  postgres?: string;
  clickhouse?: string;
}

/** A place for a fresh pair of stores, nothing opened yet. */
export interface FreshStores {
  postgres: PostgresOptions;
  clickhouse: ClickhouseOptions;
  dispose(): Promise<void>;
}

/**
 * Room for a fresh PostgreSQL database (PGlite, or a new database of the test server on the
 * services backend) and a fresh embedded ClickHouse.
 */
export async function freshStores(): Promise<FreshStores> {
  const log = createLogger({ level: 'warn', pretty: false });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-schema-'));
  const dbName = `sp_schema_${process.pid}_${randomBytes(4).toString('hex')}`;
  let databaseUrl: string | undefined;
  if (backend === 'services') {
    const admin = postgres(servicesEnv.postgresAdminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${dbName}`);
    await admin.end();
    const url = new URL(servicesEnv.postgresAdminUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  return {
    postgres: { databaseUrl, dataDir, log },
    clickhouse: { url: undefined, database: 'signpost', dataDir, log },
    async dispose() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (!databaseUrl) return;
      const admin = postgres(servicesEnv.postgresAdminUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    },
  };
}

/** Migrates a fresh pair of stores with the files of `dirs` (the repository's by default) and reads their schemas. */
export async function migratedSchemas(dirs: MigrationDirs = {}): Promise<Schemas> {
  const stores = await freshStores();
  const { log } = stores.postgres;
  try {
    const pg = await createPostgres(stores.postgres);
    let postgresText: string;
    try {
      await withMigrationLock(pg.sql, (tx) => migratePostgres(tx, log, dirs.postgres));
      postgresText = await postgresSchema(pg.sql);
    } finally {
      await pg.close();
    }
    const migrating = await createClickhouse(stores.clickhouse);
    try {
      await migrateClickhouse(migrating.client, log, { dir: dirs.clickhouse });
    } finally {
      await migrating.close();
    }
    // What a later start loads from disk, as the service reopens the engine after migrating.
    const reopened = await createClickhouse(stores.clickhouse);
    try {
      return {
        postgres: postgresText,
        clickhouse: await clickhouseSchema(reopened.client, stores.clickhouse.database),
      };
    } finally {
      await reopened.close();
    }
  } finally {
    await stores.dispose();
  }
}

/** The snapshot's lines that `actual` lacks (-) and the lines it has beyond them (+); empty when equal. */
export function schemaDifference(expected: string, actual: string): string[] {
  const want = expected.split('\n');
  const got = actual.split('\n');
  const wantSet = new Set(want);
  const gotSet = new Set(got);
  return [
    ...want.filter((l) => !gotSet.has(l)).map((l) => `- ${l}`),
    ...got.filter((l) => !wantSet.has(l)).map((l) => `+ ${l}`),
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const schemas = await migratedSchemas();
  if (process.argv.includes('--write')) {
    fs.mkdirSync(snapshotDir, { recursive: true });
    for (const store of ['postgres', 'clickhouse'] as const) fs.writeFileSync(snapshotFiles[store], schemas[store]);
    console.log(`wrote ${Object.values(snapshotFiles).join(', ')} (${backend})`);
  } else {
    let differs = false;
    for (const store of ['postgres', 'clickhouse'] as const) {
      const difference = schemaDifference(fs.readFileSync(snapshotFiles[store], 'utf8'), schemas[store]);
      differs ||= difference.length > 0;
      console.log(`${store} (${backend}): ${difference.length === 0 ? 'same as the snapshot' : 'differs'}`);
      for (const line of difference) console.log(`  ${line}`);
    }
    process.exitCode = differs ? 1 : 0;
  }
  console.log(`${Math.round(performance.now() - started)} ms`);
}
