// For tests of the ClickHouse rollups: an embedded ClickHouse of their own, and the zones and periods
// every rollup must answer exactly.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClickhouse, type Clickhouse } from '../../src/olap/clickhouse.js';
import { migrateClickhouse } from '../../src/olap/clickhouse-migrations.js';
import { createLogger } from '../../src/shared/logger.js';

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

export interface MigratedClickhouse {
  ch: Clickhouse;
  dispose(): Promise<void>;
}

/** A fresh embedded ClickHouse of its own, migrated. */
export async function migratedClickhouse(database: string): Promise<MigratedClickhouse> {
  const log = createLogger({ level: 'warn', pretty: false });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `signpost-${database}-`));
  const ch = await createClickhouse({ url: undefined, database, dataDir, log });
  await migrateClickhouse(ch.client, log);
  return {
    ch,
    dispose: async () => {
      await ch.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
