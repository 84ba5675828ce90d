// A campaign's clicks per cid come from the cid rollups: whole UTC days from the daily one,
// the partial days at the ends of the period from the 15-minute one. The top-cid list equals the
// one counted from the raw clicks (bots left out, ties at the hundredth cut the same way) in UTC,
// Asia/Seoul, America/New_York across both 2025 DST changes and Asia/Kathmandu (+5:45), for
// periods of many days, one day and a one-cid filter. The clicks come in two inserts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePeriod } from '../src/core/stats/period.js';
import { utcDaySplit } from '../src/olap/click-rollup.js';
import { createClickStats } from '../src/olap/click-stats.queries.js';
import type { Clickhouse } from '../src/olap/clickhouse.js';
import { linkPeriodParams } from '../src/olap/query-period.js';
import {
  migratedClickhouse,
  type MigratedClickhouse,
  ROLLUP_PERIODS as PERIODS,
  ROLLUP_SPANS as SPANS,
  ROLLUP_ZONES as ZONES,
} from './support/rollup-fixture.js';

const ORG = 7;
const CAMPAIGN = 51;
let db: MigratedClickhouse;
let ch: Clickhouse;

/**
 * A campaign click every 3 minutes (crossing every zone's local midnight), 240 cids of which a few
 * are far more frequent, some clicks without a cid, some bots, some of another campaign or
 * organization.
 */
function clicksOf(parity: 0 | 1): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (const [from, to] of SPANS) {
    for (let t = Date.parse(from), k = 0; t < Date.parse(to); t += 3 * 60_000, k++) {
      if (k % 2 !== parity) continue;
      rows.push({
        event_id: crypto.randomUUID(),
        ts: new Date(t).toISOString().replace('T', ' ').replace('Z', ''),
        organization_id: k % 23 === 0 ? ORG + 1 : ORG,
        link_type: k % 19 === 0 ? 'url' : 'campaign',
        link_id: k % 17 === 0 ? CAMPAIGN + 1 : CAMPAIGN,
        host: 'localhost',
        cid: k % 9 === 0 ? '' : k % 5 === 0 ? `hot-${k % 4}` : `user-${(k * 7) % 240}`,
        is_bot: k % 13 === 0 ? 1 : 0,
      });
    }
  }
  return rows;
}

const insertClicks = (parity: 0 | 1) =>
  ch.client.insert({ table: 'clicks', values: clicksOf(parity), format: 'JSONEachRow' });

/** The top-cid list as it was read before: from the raw clicks. */
async function rawTopCids(params: Record<string, unknown>, cid: string | null): Promise<{ name: string; c: string }[]> {
  const result = await ch.client.query({
    query: `SELECT cid AS name, count() AS c FROM clicks
            WHERE organization_id = {org:UInt64} AND link_type = {type:String} AND link_id = {id:UInt64}
              AND ts >= {start:DateTime64(3, 'UTC')} AND ts < {end:DateTime64(3, 'UTC')} AND is_bot = 0 AND cid != ''
              ${cid === null ? '' : 'AND cid = {cid:String}'}
            GROUP BY name ORDER BY c DESC, name LIMIT 100`,
    query_params: { ...params, cid: cid ?? '' },
    format: 'JSONEachRow',
  });
  return result.json();
}

beforeAll(async () => {
  db = await migratedClickhouse('cid_rollups');
  ch = db.ch;
  await insertClicks(0);
  await insertClicks(1);
});

afterAll(async () => {
  await db?.dispose();
});

describe('a period cut at UTC midnights', () => {
  it('whole UTC days inside, partial days at the ends, none within a day', () => {
    const seoul = resolvePeriod({
      startDate: '2025-03-01',
      endDate: '2025-03-03',
      timeZone: 'Asia/Seoul',
      retentionDays: 3650,
      now: new Date('2026-01-01T00:00:00Z'),
    });
    // 2025-02-28T15:00Z to 2025-03-03T15:00Z: 1 to 3 March UTC are whole.
    expect(utcDaySplit(seoul)).toEqual({
      daysFrom: Date.parse('2025-03-01T00:00:00Z') / 1000,
      daysTo: Date.parse('2025-03-03T00:00:00Z') / 1000,
    });
    const utc = { utcStart: new Date('2025-03-01T00:00:00Z'), utcEnd: new Date('2025-03-02T00:00:00Z') };
    expect(utcDaySplit(utc)).toEqual({ daysFrom: utc.utcStart.getTime() / 1000, daysTo: utc.utcEnd.getTime() / 1000 });
    const oneLocalDay = { utcStart: new Date('2025-03-01T18:15:00Z'), utcEnd: new Date('2025-03-02T18:15:00Z') };
    expect(utcDaySplit(oneLocalDay)).toEqual({
      daysFrom: oneLocalDay.utcEnd.getTime() / 1000,
      daysTo: oneLocalDay.utcEnd.getTime() / 1000,
    });
  });
});

describe('clicks per cid from the rollups equal the raw clicks', () => {
  for (const timeZone of ZONES) {
    for (const p of PERIODS) {
      it(`${timeZone}, ${p.startDate} to ${p.endDate}`, async () => {
        const period = resolvePeriod({ ...p, timeZone, retentionDays: 3650, now: new Date('2026-01-01T00:00:00Z') });
        const input = { organizationId: ORG, linkType: 'campaign' as const, linkId: CAMPAIGN, period };
        const raw = await rawTopCids(linkPeriodParams(input), null);
        // More cids than the list holds, so the cut at the hundredth is tested too.
        expect(raw).toHaveLength(100);
        const stats = await createClickStats(ch.client).forLink(input);
        expect(stats.customIds.map((c) => [c.name, c.count])).toEqual(
          raw
            .map((r) => [r.name, Number(r.c)])
            .sort((a, b) => Number(b[1]) - Number(a[1]) || String(a[0]).localeCompare(String(b[0]))),
        );
        for (const customId of ['hot-1', 'user-7']) {
          const one = await createClickStats(ch.client).forLink({ ...input, customId });
          const [expected] = await rawTopCids(linkPeriodParams(input), customId);
          expect(one.customIds.map((c) => [c.name, c.count])).toEqual([[customId, Number(expected?.c)]]);
        }
      });
    }
  }
});
