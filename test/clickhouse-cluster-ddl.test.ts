// The cluster form of the ClickHouse migrations (CLICKHOUSE_CLUSTER), read by ClickHouse's own
// parser: no cluster runs here, so chDB only parses and formats each statement (formatQuery) and
// never runs one ON CLUSTER. Without a cluster the statements are the files' own, and run on chDB.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clickhouse, createClickhouse } from '../src/olap/clickhouse.js';
import { SCHEMA_MIGRATIONS_TABLE } from '../src/olap/clickhouse-migrations.js';
import { onCluster, REPLICA_PATH } from '../src/olap/cluster-ddl.js';
import { createLogger } from '../src/shared/logger.js';
import { readMigrationFiles, splitStatements, sqlRoot } from '../src/shared/migration-files.js';

const log = createLogger({ level: 'warn', pretty: false });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-cluster-ddl-'));
let ch: Clickhouse;

const statements = [
  SCHEMA_MIGRATIONS_TABLE,
  ...readMigrationFiles(path.join(sqlRoot, 'clickhouse')).flatMap((m) => splitStatements(m.sql)),
];

beforeAll(async () => {
  ch = await createClickhouse({ url: undefined, database: 'cluster_ddl', dataDir, log });
});

afterAll(async () => {
  await ch.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function formatted(sql: string): Promise<string> {
  const result = await ch.client.query({
    query: 'SELECT formatQuery({sql:String}) AS f',
    query_params: { sql },
    format: 'JSONEachRow',
  });
  const [row] = await result.json<{ f: string }>();
  return row!.f;
}

/** A formatted cluster statement with the clause, the Keeper path and the window taken out again. */
const withoutCluster = (sql: string) =>
  sql
    .replaceAll(' ON CLUSTER events', '')
    .replaceAll('ENGINE = Replicated', 'ENGINE = ')
    .replaceAll(`(${REPLICA_PATH})`, '')
    .replaceAll(`(${REPLICA_PATH}, `, '(')
    .replace(
      /replicated_deduplication_window = (\d+), replicated_deduplication_window_seconds = 604800/g,
      'non_replicated_deduplication_window = $1',
    );

describe('the migrations on a cluster, as ClickHouse parses them', () => {
  it('parses every statement to the same one as on one server, plus ON CLUSTER and the replicated engines', async () => {
    for (const sql of statements) {
      // A backfill (INSERT … SELECT) runs on one replica as it is: replication carries its rows.
      if (/^INSERT\b/i.test(sql)) {
        expect(onCluster(sql, 'events')).toBe(sql);
        continue;
      }
      const cluster = await formatted(onCluster(sql, 'events'));
      const single = await formatted(sql);
      // The clause sits in the statement's head, where ClickHouse's own formatting puts it.
      expect(cluster.split('\n', 1)[0]).toMatch(/ ON CLUSTER events( TO \w+)?$/);
      expect(cluster.match(/ENGINE = Replicated/g)?.length ?? 0).toBe(
        single.match(/ENGINE = \w*MergeTree/g)?.length ?? 0,
      );
      expect(withoutCluster(cluster)).toBe(single);
    }
  });
});

describe('the migrations on one server', () => {
  it('runs every statement on chDB exactly as the files have it', async () => {
    for (const sql of statements) {
      expect(onCluster(sql, undefined)).toBe(sql);
      await ch.client.command({ query: onCluster(sql, undefined) });
    }
    const result = await ch.client.query({
      query: `SELECT engine, count() AS n FROM system.tables WHERE database = 'cluster_ddl' GROUP BY engine`,
      format: 'JSONEachRow',
    });
    const engines = Object.fromEntries(
      (await result.json<{ engine: string; n: string }>()).map((r) => [r.engine, Number(r.n)]),
    );
    expect(Object.keys(engines).some((engine) => engine.startsWith('Replicated'))).toBe(false);
    expect(engines.MaterializedView).toBeGreaterThan(10);
  });
});
