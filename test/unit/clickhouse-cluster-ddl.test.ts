// The ClickHouse migrations rendered for a cluster (CLICKHOUSE_CLUSTER): ON CLUSTER on every DDL
// statement, the Replicated form of every MergeTree engine, and nothing else changed; without a
// cluster, every statement byte for byte as the files have it. test/clickhouse-cluster-ddl.test.ts
// has ClickHouse's own parser read the result.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_MIGRATIONS_TABLE } from '../../src/olap/clickhouse-migrations.js';
import { onCluster, REPLICA_PATH } from '../../src/olap/cluster-ddl.js';
import { readMigrationFiles, splitStatements, sqlRoot } from '../../src/shared/migration-files.js';

const P = REPLICA_PATH;
const WINDOW = 'replicated_deduplication_window = 10000, replicated_deduplication_window_seconds = 604800';

/** Every statement the runner sends, from every migration file and the runner itself. */
const statements = [
  ...readMigrationFiles(path.join(sqlRoot, 'clickhouse')).flatMap((m) =>
    splitStatements(m.sql).map((sql, i) => ({ where: `${m.version}_${m.name} #${i + 1}`, sql })),
  ),
  { where: 'schema_migrations', sql: SCHEMA_MIGRATIONS_TABLE },
];

describe('onCluster: one statement', () => {
  it.each([
    [
      'a plain MergeTree',
      'CREATE TABLE IF NOT EXISTS t (a UInt8) ENGINE = MergeTree ORDER BY a',
      `CREATE TABLE IF NOT EXISTS t ON CLUSTER c (a UInt8) ENGINE = ReplicatedMergeTree(${P}) ORDER BY a`,
    ],
    [
      'a MergeTree with empty parentheses',
      'CREATE TABLE t (a UInt8) ENGINE = MergeTree() ORDER BY a',
      `CREATE TABLE t ON CLUSTER c (a UInt8) ENGINE = ReplicatedMergeTree(${P}) ORDER BY a`,
    ],
    [
      'a ReplacingMergeTree with its version column',
      'CREATE TABLE t (a UInt8, v UInt64) ENGINE = ReplacingMergeTree(v) ORDER BY a',
      `CREATE TABLE t ON CLUSTER c (a UInt8, v UInt64) ENGINE = ReplicatedReplacingMergeTree(${P}, v) ORDER BY a`,
    ],
    [
      'a ReplacingMergeTree with version and is_deleted',
      'CREATE TABLE t (a UInt8) ENGINE=ReplacingMergeTree( v , d ) ORDER BY a',
      `CREATE TABLE t ON CLUSTER c (a UInt8) ENGINE = ReplicatedReplacingMergeTree(${P}, v , d) ORDER BY a`,
    ],
    [
      'a SummingMergeTree of a column tuple',
      'CREATE TABLE t (a UInt8) ENGINE = SummingMergeTree((x, y)) ORDER BY a',
      `CREATE TABLE t ON CLUSTER c (a UInt8) ENGINE = ReplicatedSummingMergeTree(${P}, (x, y)) ORDER BY a`,
    ],
    [
      'an AggregatingMergeTree',
      'CREATE TABLE t (a UInt8) ENGINE = AggregatingMergeTree ORDER BY a',
      `CREATE TABLE t ON CLUSTER c (a UInt8) ENGINE = ReplicatedAggregatingMergeTree(${P}) ORDER BY a`,
    ],
    [
      'a CollapsingMergeTree',
      'CREATE TABLE t (s Int8) ENGINE = CollapsingMergeTree(s) ORDER BY s',
      `CREATE TABLE t ON CLUSTER c (s Int8) ENGINE = ReplicatedCollapsingMergeTree(${P}, s) ORDER BY s`,
    ],
    [
      'a VersionedCollapsingMergeTree',
      'CREATE TABLE t (s Int8, v UInt8) ENGINE = VersionedCollapsingMergeTree(s, v) ORDER BY s',
      `CREATE TABLE t ON CLUSTER c (s Int8, v UInt8) ENGINE = ReplicatedVersionedCollapsingMergeTree(${P}, s, v) ORDER BY s`,
    ],
    [
      'a parameter holding a parenthesis in a string',
      "CREATE TABLE t (a UInt8) ENGINE = GraphiteMergeTree('rollup)') ORDER BY a",
      `CREATE TABLE t ON CLUSTER c (a UInt8) ENGINE = ReplicatedGraphiteMergeTree(${P}, 'rollup)') ORDER BY a`,
    ],
    [
      'the one-server deduplication window',
      'CREATE TABLE t (a UInt8) ENGINE = MergeTree ORDER BY a SETTINGS non_replicated_deduplication_window = 10000',
      `CREATE TABLE t ON CLUSTER c (a UInt8) ENGINE = ReplicatedMergeTree(${P}) ORDER BY a SETTINGS ${WINDOW}`,
    ],
    [
      'a window changed',
      'ALTER TABLE t MODIFY SETTING non_replicated_deduplication_window = 500',
      'ALTER TABLE t ON CLUSTER c MODIFY SETTING replicated_deduplication_window = 500, replicated_deduplication_window_seconds = 604800',
    ],
    [
      'a materialized view with an inner table',
      'CREATE MATERIALIZED VIEW v ENGINE = SummingMergeTree ORDER BY a AS SELECT a FROM s',
      `CREATE MATERIALIZED VIEW v ON CLUSTER c ENGINE = ReplicatedSummingMergeTree(${P}) ORDER BY a AS SELECT a FROM s`,
    ],
  ])('%s', (_, sql, expected) => {
    expect(onCluster(sql, 'c')).toBe(expected);
  });

  // Statements whose only change is the clause: the text it goes right after.
  it.each([
    ['a quoted, qualified name', 'CREATE TABLE `db`.`t` (a UInt8) ENGINE = Memory', 'CREATE TABLE `db`.`t`'],
    ['a database', 'CREATE DATABASE IF NOT EXISTS `signpost`', 'CREATE DATABASE IF NOT EXISTS `signpost`'],
    ['a view', 'CREATE VIEW IF NOT EXISTS v (a UInt8) AS SELECT a FROM t', 'CREATE VIEW IF NOT EXISTS v'],
    ['a materialized view, before TO', 'CREATE MATERIALIZED VIEW v TO t AS SELECT 1', 'CREATE MATERIALIZED VIEW v'],
    ['a column added', 'ALTER TABLE clicks\n  ADD COLUMN IF NOT EXISTS `x` String AFTER `y`', 'ALTER TABLE clicks'],
    ['a table dropped', 'DROP TABLE IF EXISTS t SYNC', 'DROP TABLE IF EXISTS t'],
    ['a view dropped', 'DROP VIEW v', 'DROP VIEW v'],
    ['tables renamed', 'RENAME TABLE a TO b, c TO d', 'RENAME TABLE a TO b, c TO d'],
    ['tables exchanged', 'EXCHANGE TABLES a AND b', 'EXCHANGE TABLES a AND b'],
    ['a table emptied', 'TRUNCATE TABLE IF EXISTS t', 'TRUNCATE TABLE IF EXISTS t'],
    ['a table optimized', 'OPTIMIZE TABLE t FINAL', 'OPTIMIZE TABLE t'],
    ['a function', 'CREATE FUNCTION IF NOT EXISTS f AS (x) -> x + 1', 'CREATE FUNCTION IF NOT EXISTS f'],
    ['an engine in a comment', "CREATE TABLE t ENGINE = Null COMMENT 'ENGINE = MergeTree'", 'CREATE TABLE t'],
    ['window in comment', "ALTER TABLE t MODIFY COMMENT 'non_replicated_deduplication_window = 1'", 'ALTER TABLE t'],
  ])('%s', (_, sql, head) => {
    expect(onCluster(sql, 'c')).toBe(`${head} ON CLUSTER c${sql.slice(head.length)}`);
  });

  it.each([
    ['a backfill: replication carries its rows', 'INSERT INTO t SELECT * FROM s'],
    ['a query', 'SELECT 1'],
  ])('leaves %s as it is', (_, sql) => {
    expect(onCluster(sql, 'c')).toBe(sql);
  });

  it('keeps the blank lines before a statement', () => {
    expect(onCluster('\n  CREATE VIEW v AS SELECT 1', 'c')).toBe('\n  CREATE VIEW v ON CLUSTER c AS SELECT 1');
  });

  it.each([
    ['a grant', 'GRANT SELECT ON signpost.* TO analyst'],
    ['a SYSTEM statement', 'SYSTEM RELOAD DICTIONARIES'],
    ['a user', "CREATE USER u IDENTIFIED BY 'x'"],
    ['a statement that names a cluster already', 'CREATE TABLE t ON CLUSTER other (a UInt8) ENGINE = Memory'],
    ['unbalanced engine parameters', 'CREATE TABLE t (a UInt8) ENGINE = ReplacingMergeTree(v ORDER BY a'],
  ])('refuses %s rather than run it on one server', (_, sql) => {
    expect(() => onCluster(sql, 'c')).toThrow();
  });

  it('returns the statement itself without a cluster, even one it could not place', () => {
    for (const sql of [
      'GRANT SELECT ON signpost.* TO analyst',
      'CREATE TABLE t (a UInt8) ENGINE = MergeTree ORDER BY a',
    ])
      expect(onCluster(sql, undefined)).toBe(sql);
  });
});

/** What a DDL statement creates, changes or drops, and the table a materialized view writes to. */
const HEAD =
  /^(?:CREATE|ALTER|DROP)\s+(?:TABLE|VIEW|MATERIALIZED VIEW|DATABASE)\s+(?:IF (?:NOT )?EXISTS\s+)?(\S+?)(?=\s|\()(?:\s+TO\s+(\S+))?/;

/** The cluster form taken back to the files' form, to show nothing else was touched. */
const backToOneServer = (sql: string) =>
  sql
    .replaceAll(' ON CLUSTER events', '')
    .replace(/ENGINE = Replicated(\w*)MergeTree\((.*?)\)/g, (_, family: string, args: string) => {
      const params = args.slice(P.length).replace(/^, /, '');
      return `ENGINE = ${family}MergeTree${params ? `(${params})` : ''}`;
    })
    .replace(
      /replicated_deduplication_window = (\d+), replicated_deduplication_window_seconds = 604800/g,
      'non_replicated_deduplication_window = $1',
    );

describe("onCluster: every statement of today's migrations", () => {
  it('finds the statements: the baseline, the later files and the runner', () => {
    expect(statements.length).toBeGreaterThan(50);
  });

  it.each(statements)('$where: unchanged without a cluster', ({ sql }) => {
    expect(onCluster(sql, undefined)).toBe(sql);
  });

  // A backfill (INSERT … SELECT) changes rows, not the schema: one replica runs it, replication
  // carries the rows to the others.
  const backfills = statements.filter(({ sql }) => /^INSERT\b/i.test(sql));
  const ddl = statements.filter((s) => !backfills.includes(s));

  it.each(backfills)('$where: a backfill, run on one replica as it is', ({ sql }) => {
    expect(onCluster(sql, 'events')).toBe(sql);
  });

  it.each(ddl)('$where: ON CLUSTER after its name, replicated engines, nothing else changed', ({ sql }) => {
    const out = onCluster(sql, 'events');
    const head = HEAD.exec(sql);
    expect(head, 'a DDL statement of a kind these checks know').not.toBeNull();
    const [, name, target] = head!;
    // The clause right after the name; a materialized view's TO target stays as it was.
    expect(out.startsWith(`${sql.slice(0, sql.indexOf(name!) + name!.length)} ON CLUSTER events`)).toBe(true);
    if (target) expect(out).toContain(`${name} ON CLUSTER events TO ${target}`);
    expect(out.match(/ON CLUSTER/g)).toHaveLength(1);
    // Each MergeTree engine in its Replicated form with the Keeper path, none left for one server.
    const engines = sql.match(/ENGINE = \w*MergeTree/g) ?? [];
    expect(out.match(new RegExp(`ENGINE = Replicated\\w*MergeTree\\(${escapeRegExp(P)}`, 'g')) ?? []).toHaveLength(
      engines.length,
    );
    expect(out).not.toMatch(/ENGINE = (?!Replicated)\w*MergeTree/);
    expect(out).not.toContain('non_replicated_deduplication_window');
    expect(backToOneServer(out)).toBe(sql);
  });

  it('makes every table of the baseline replicated, with the window it had on one server', () => {
    const baseline = statements.filter((s) => s.where.startsWith('1_baseline') && /^CREATE TABLE/.test(s.sql));
    expect(baseline.length).toBeGreaterThan(20);
    for (const { sql } of baseline) {
      const out = onCluster(sql, 'events');
      expect(out).toMatch(/ENGINE = Replicated(Replacing|Summing|Aggregating)?MergeTree\(/);
      if (sql.includes('non_replicated_deduplication_window = 10000')) expect(out).toContain(WINDOW);
    }
  });

  it("renders the runner's own record as a replicated ReplacingMergeTree", () => {
    expect(onCluster(SCHEMA_MIGRATIONS_TABLE, 'events')).toContain(
      `schema_migrations ON CLUSTER events (\n      version UInt32`,
    );
    expect(onCluster(SCHEMA_MIGRATIONS_TABLE, 'events')).toContain(
      `ENGINE = ReplicatedReplacingMergeTree(${P}) ORDER BY version`,
    );
  });
});

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
