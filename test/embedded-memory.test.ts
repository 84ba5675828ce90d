// The embedded engines' memory settings reach the engines: chDB reports the cache sizes and the
// limit it was given among its server settings, and PGlite the shared_buffers it started with.
// What they save is measured by `npm run bench:memory` (docs/performance.md#memory).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClickhouse } from '../src/olap/clickhouse.js';
import { createPostgres } from '../src/oltp/postgres.js';
import { loadConfig } from '../src/shared/config.js';
import { createLogger } from '../src/shared/logger.js';

const log = createLogger({ level: 'warn', pretty: false });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-embedded-memory-'));
const MIB = 1024 * 1024;

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('the embedded engines take the memory settings', () => {
  it('chDB starts with the cache sizes and the memory limit it is given', async () => {
    const { stores } = loadConfig({
      CLICKHOUSE_EMBEDDED_MARK_CACHE_MB: '48',
      CLICKHOUSE_EMBEDDED_MAX_MEMORY_MB: '700',
    });
    const ch = await createClickhouse({
      url: undefined,
      database: 'memory',
      dataDir,
      log,
      embeddedMemory: {
        markCacheMb: stores.clickhouseEmbeddedMarkCacheMb,
        indexCacheMb: stores.clickhouseEmbeddedIndexCacheMb,
        maxMemoryMb: stores.clickhouseEmbeddedMaxMemoryMb,
      },
    });
    try {
      const result = await ch.client.query({
        query: `SELECT name, value FROM system.server_settings
                WHERE name IN ('mark_cache_size', 'primary_index_cache_size', 'index_mark_cache_size', 'max_server_memory_usage')`,
        format: 'JSONEachRow',
      });
      const settings = Object.fromEntries(
        (await result.json<{ name: string; value: string }>()).map((r) => [r.name, Number(r.value)]),
      );
      expect(settings).toEqual({
        mark_cache_size: 48 * MIB,
        primary_index_cache_size: 32 * MIB,
        index_mark_cache_size: 32 * MIB,
        max_server_memory_usage: 700 * MIB,
      });
    } finally {
      await ch.close();
    }
  });

  it('PGlite starts with the shared_buffers it is given, 16 MB unless told', async () => {
    expect(loadConfig({}).stores.pgliteSharedBuffersMb).toBe(16);
    const pg = await createPostgres({ databaseUrl: undefined, dataDir, log, pgliteSharedBuffersMb: 24 });
    try {
      const [row] = await pg.sql<{ shared_buffers: string }[]>`show shared_buffers`;
      expect(row?.shared_buffers).toBe('24MB');
    } finally {
      await pg.close();
    }
  });
});
