// For tests of a rollup that a ClickHouse migration adds: an embedded ClickHouse migrated up to the
// migration before it (so data can be written the way an older version stored it), then upgraded;
// and the zones and periods every rollup must answer exactly.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClickhouse, type Clickhouse } from '../../src/olap/clickhouse.js';
import { migrateClickhouse } from '../../src/olap/migrate.js';
import { createLogger } from '../../src/shared/logger.js';
import { sqlRoot } from '../../src/shared/migration-files.js';

/** UTC, a whole-hour zone, one with DST and one at +5:45. */
export const ROLLUP_ZONES = ['UTC', 'Asia/Seoul', 'America/New_York', 'Asia/Kathmandu'] as const;
/** Around the 2025 DST changes of New York (2025-03-09, 2025-11-02), and the day of one. */
export const ROLLUP_PERIODS = [
  { startDate: '2025-03-01', endDate: '2025-03-15' },
  { startDate: '2025-10-27', endDate: '2025-11-08' },
  { startDate: '2025-11-02', endDate: '2025-11-02' },
] as const;
/** UTC spans holding the periods with a day or two to spare, for seeded events. */
export const ROLLUP_SPANS = [
  ['2025-02-27T00:00:00Z', '2025-03-17T00:00:00Z'],
  ['2025-10-25T00:00:00Z', '2025-11-10T00:00:00Z'],
] as const;

export interface UpgradingClickhouse {
  ch: Clickhouse;
  /** Applies the rest of the migrations; resolves to the versions applied. */
  upgrade(): Promise<number[]>;
  dispose(): Promise<void>;
}

/** An embedded ClickHouse at the migrations before `version`. */
export async function clickhouseBefore(version: number, database: string): Promise<UpgradingClickhouse> {
  const log = createLogger({ level: 'warn', pretty: false });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `signpost-${database}-`));
  const before = path.join(dataDir, `migrations-before-${version}`);
  fs.mkdirSync(before);
  for (const file of fs.readdirSync(path.join(sqlRoot, 'clickhouse'))) {
    if (Number(file.slice(0, 4)) < version)
      fs.copyFileSync(path.join(sqlRoot, 'clickhouse', file), path.join(before, file));
  }
  const ch = await createClickhouse({ url: undefined, database, dataDir, log });
  await migrateClickhouse(ch.client, log, before);
  return {
    ch,
    upgrade: () => migrateClickhouse(ch.client, log),
    dispose: async () => {
      await ch.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
