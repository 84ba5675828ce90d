// A fresh start migrates each store to exactly the schema of the snapshot in test/support/schema,
// which was written from the development migrations before they were squashed into one baseline
// per store: every table, column, type, default, constraint, index, comment, engine, order key,
// TTL, setting and view definition. On PGlite or PostgreSQL (services backend), and chDB.
// A migration that changes the schema on purpose comes with a new snapshot:
// `npx tsx test/support/schema-snapshot.ts --write`.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { migratedSchemas, schemaDifference, snapshotFiles } from './support/schema-snapshot.js';

describe(`the schema of a fresh start (${backend})`, () => {
  it('equals the snapshot in both stores', async () => {
    const schemas = await migratedSchemas();
    for (const store of ['postgres', 'clickhouse'] as const) {
      const snapshot = fs.readFileSync(snapshotFiles[store], 'utf8');
      expect(schemaDifference(snapshot, schemas[store]), store).toEqual([]);
    }
  }, 180_000);
});
