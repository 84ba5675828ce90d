// Reading numbered migration files and splitting them into statements.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pendingMigrations, readMigrationFiles, splitStatements, sqlRoot } from '../../src/shared/migration-files.js';

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function dirWith(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-migrations-'));
  tempDirs.push(dir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

describe('readMigrationFiles', () => {
  it('returns the numbered files in version order, with their names and text', () => {
    const dir = dirWith({
      '0010_add_index.sql': 'CREATE INDEX i ON t (a);',
      '0002_second.sql': 'ALTER TABLE t ADD COLUMN b int;',
      '0001_init.sql': 'CREATE TABLE t (a int);',
      '0009_ninth.sql': 'SELECT 9;',
    });
    expect(readMigrationFiles(dir)).toEqual([
      { version: 1, name: 'init', sql: 'CREATE TABLE t (a int);' },
      { version: 2, name: 'second', sql: 'ALTER TABLE t ADD COLUMN b int;' },
      { version: 9, name: 'ninth', sql: 'SELECT 9;' },
      { version: 10, name: 'add_index', sql: 'CREATE INDEX i ON t (a);' },
    ]);
  });

  it('skips files that are not NNNN_name.sql', () => {
    const dir = dirWith({
      '0001_init.sql': 'SELECT 1;',
      'README.md': '# notes',
      '0002_init.sql.bak': 'SELECT 2;',
      '12_short.sql': 'SELECT 12;',
    });
    expect(readMigrationFiles(dir).map((m) => m.version)).toEqual([1]);
  });

  it('refuses two files with the same version', () => {
    const dir = dirWith({ '0001_init.sql': 'SELECT 1;', '0002_a.sql': 'SELECT 2;', '0002_b.sql': 'SELECT 3;' });
    expect(() => readMigrationFiles(dir)).toThrow(/two migrations share version 2/);
  });

  it('finds the repository migrations of both engines from sqlRoot, starting at the 0001 baseline', () => {
    for (const engine of ['postgres', 'clickhouse']) {
      const migrations = readMigrationFiles(path.join(sqlRoot, engine));
      expect(migrations[0]).toMatchObject({ version: 1, name: 'baseline' });
      // Numbered after the baseline, without gaps.
      expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
      for (const m of migrations) expect(splitStatements(m.sql).length).toBeGreaterThan(0);
    }
  });
});

describe('pendingMigrations', () => {
  const files = [
    { version: 1, name: 'baseline', sql: 'SELECT 1;' },
    { version: 2, name: 'next', sql: 'SELECT 2;' },
  ];

  it('returns every file for a new database and none for a database that ran them', () => {
    expect(pendingMigrations('PostgreSQL', files, [])).toEqual(files);
    expect(pendingMigrations('PostgreSQL', files, [{ version: 1, name: 'baseline' }])).toEqual([files[1]]);
    expect(
      pendingMigrations('PostgreSQL', files, [
        { version: 2, name: 'next' },
        { version: 1, name: 'baseline' },
      ]),
    ).toEqual([]);
  });

  it("leaves a newer release's versions alone", () => {
    expect(
      pendingMigrations('ClickHouse', files, [
        { version: 1, name: 'baseline' },
        { version: 2, name: 'next' },
        { version: 3, name: 'later' },
      ]),
    ).toEqual([]);
  });

  it('refuses a database migrated by the pre-release files, which recorded other names', () => {
    const preRelease = [
      { version: 1, name: 'foundation' },
      { version: 2, name: 'links' },
      { version: 18, name: 'domain_check_lease' },
    ];
    expect(() => pendingMigrations('PostgreSQL', files, preRelease)).toThrow(
      /PostgreSQL database records migration 1 as "foundation", but this version's is "baseline": .*pre-release build.*empty DATA_DIR/,
    );
  });
});

describe('splitStatements', () => {
  it('splits at semicolons that end a line and keeps multi-line statements whole', () => {
    const sql = [
      'CREATE TABLE a (',
      '  id int,',
      "  note text DEFAULT 'x'",
      ');',
      '',
      'CREATE INDEX a_id ON a (id);   ',
      'INSERT INTO a VALUES (1)',
    ].join('\n');
    expect(splitStatements(sql)).toEqual([
      "CREATE TABLE a (\n  id int,\n  note text DEFAULT 'x'\n)",
      'CREATE INDEX a_id ON a (id)',
      'INSERT INTO a VALUES (1)',
    ]);
  });

  it('drops comment lines, including comments that end in a semicolon, and empty statements', () => {
    const sql = [
      '-- What this file is for;',
      '   -- indented comment',
      'CREATE TABLE b (',
      '  -- the key',
      '  id int',
      ');',
      ';',
      '-- trailing comment',
      '',
    ].join('\n');
    expect(splitStatements(sql)).toEqual(['CREATE TABLE b (\n\n  id int\n)']);
  });

  it('keeps semicolons inside a line, and handles Windows line endings', () => {
    expect(splitStatements("SELECT 'a;b';\r\nSELECT 2;\r\n")).toEqual(["SELECT 'a;b'", 'SELECT 2']);
  });

  it('returns nothing for a file of comments', () => {
    expect(splitStatements('-- nothing yet\n\n-- still nothing\n')).toEqual([]);
  });
});

describe('the ClickHouse migrations', () => {
  it('give a materialized view its comment in its CREATE, never by ALTER', () => {
    // An ALTER of a view changes the deduplication tokens its inserts derive until the engine loads
    // it again (test/clickhouse-view-reload.test.ts): an embedded engine is reopened after
    // migrating, a server keeps the altered view until it restarts.
    const files = readMigrationFiles(path.join(sqlRoot, 'clickhouse'));
    const views = new Set(
      files.flatMap((f) => [...f.sql.matchAll(/MATERIALIZED VIEW (?:IF NOT EXISTS )?`?(\w+)`?/gi)].map((m) => m[1]!)),
    );
    expect(views.size).toBeGreaterThan(10);
    const altered = files.flatMap((f) =>
      splitStatements(f.sql)
        .map((s) => /^ALTER TABLE `?(\w+)`?/i.exec(s)?.[1])
        .filter((t) => t !== undefined && views.has(t))
        .map((t) => `${f.version}: ${t}`),
    );
    expect(altered).toEqual([]);
  });
});
