// Reads numbered, forward-only migration files (`NNNN_name.sql`) of one engine, in order.
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
 * Splits a file into statements at semicolons that end a line. ClickHouse over HTTP takes one
 * statement per request; our files keep `;` out of string literals, so this stays simple.
 */
export function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*(?:\r?\n|$)/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
