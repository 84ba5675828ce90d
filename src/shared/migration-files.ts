// Reads numbered, forward-only migration files (`NNNN_name.sql`) of one engine, in order, and
// tells which of them a database still lacks.
//
// Numbering: 0001_baseline.sql of each engine is the schema of the first release (0.1.0), squashed
// from the migrations of its development, which no installation ever ran one by one. A change of
// the schema is a new file numbered after the highest one of its engine (0002, 0003, ...), never
// an edit of a file that has shipped: a database records each file it ran by version and name,
// and runs a version once. The two engines count apart.
//
// A database migrated by the development files records the same versions under other names
// (0001 was `foundation` in PostgreSQL, `api_requests` in ClickHouse). Nothing would run on it and
// later migrations would be taken for done, so it is refused with an error that says so, rather
// than started on a schema that only looks current. There is no upgrade path from those builds:
// start from an empty DATA_DIR or database.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface MigrationFile {
  version: number;
  name: string;
  sql: string;
}

/** The repository's `sql/` folder, wherever the code runs from (src with tsx, dist when built). */
export const sqlRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'sql');

export function readMigrationFiles(dir: string): MigrationFile[] {
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort();
  const seen = new Set<number>();
  return files.map((file) => {
    const version = Number(file.slice(0, 4));
    if (seen.has(version)) throw new Error(`two migrations share version ${version} in ${dir}`);
    seen.add(version);
    return { version, name: file.slice(5, -4), sql: fs.readFileSync(path.join(dir, file), 'utf8') };
  });
}

/**
 * The files a database has not run yet, in order. A recorded version whose file now bears another
 * name means the database was migrated by other files (a pre-release build, see above): refused.
 * A recorded version without a file is a newer release's, left alone (an older instance of a
 * rolling deploy).
 */
export function pendingMigrations(
  engine: string,
  files: MigrationFile[],
  recorded: readonly { version: number; name: string }[],
): MigrationFile[] {
  const names = new Map(recorded.map((r) => [r.version, r.name]));
  for (const file of files) {
    const name = names.get(file.version);
    if (name !== undefined && name !== file.name)
      throw new Error(
        `the ${engine} database records migration ${file.version} as "${name}", but this version's is "${file.name}": ` +
          'it was migrated by a pre-release build, whose schema cannot be upgraded; start from an empty DATA_DIR ' +
          '(or a new database)',
      );
  }
  return files.filter((f) => !names.has(f.version));
}

/**
 * Splits a file into statements at semicolons that end a line. ClickHouse over HTTP takes one
 * statement per request; our files keep `;` out of string literals, so this stays simple.
 */
export function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*(?:\r?\n|$)/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
