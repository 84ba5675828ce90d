// Opening the stores and applying their pending migrations, on its own: `npm run migrate` (and
// the test suite's template, migrated in a child process) loads this and the stores, not the whole
// service.
import { type Clickhouse, createClickhouse } from '../olap/clickhouse.js';
import { migrateClickhouse } from '../olap/clickhouse-migrations.js';
import { migratePostgres, withMigrationLock } from '../oltp/postgres-migrations.js';
import { createPostgres, type Postgres } from '../oltp/postgres.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';

/** Opens both stores and applies every pending migration under the cluster-wide lock. */
export async function openStores(config: Config, log: Logger): Promise<{ postgres: Postgres; clickhouse: Clickhouse }> {
  const postgres = await createPostgres({
    databaseUrl: config.stores.databaseUrl,
    dataDir: config.stores.dataDir,
    pgliteSharedBuffersMb: config.stores.pgliteSharedBuffersMb,
    log,
  });
  try {
    const clickhouseOptions = {
      url: config.stores.clickhouseUrl,
      database: config.stores.clickhouseDatabase,
      cluster: config.stores.clickhouseCluster,
      dataDir: config.stores.dataDir,
      embeddedMemory: {
        markCacheMb: config.stores.clickhouseEmbeddedMarkCacheMb,
        indexCacheMb: config.stores.clickhouseEmbeddedIndexCacheMb,
        maxMemoryMb: config.stores.clickhouseEmbeddedMaxMemoryMb,
      },
      log,
    };
    let clickhouse = await createClickhouse(clickhouseOptions);
    const applied = await withMigrationLock(postgres.sql, async (tx) => {
      await migratePostgres(tx, log);
      return migrateClickhouse(clickhouse.client, log, { cluster: config.stores.clickhouseCluster });
    });
    if (clickhouse.embedded && applied.length > 0) {
      // A materialized view altered in this process (its comment, by a migration) derives other
      // deduplication tokens for its inserts than the same view loaded from disk, so an insert
      // repeated after a restart went into the rollups twice. A fresh session loads every view
      // from disk, as every later start does. test/clickhouse-view-reload.test.ts shows it.
      await clickhouse.close();
      clickhouse = await createClickhouse(clickhouseOptions);
    }
    return { postgres, clickhouse };
  } catch (err) {
    await postgres.close().catch(() => {});
    throw err;
  }
}
