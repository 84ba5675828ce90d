// The journey dashboard reads each table once (sessions in one query; events, transitions and goals
// in another) instead of once per statistic: on seeded journeys, with late and repeated events,
// it answers exactly what the statistics' own queries answer, in Asia/Seoul and Asia/Kathmandu
// (+5:45) over a year and over a month.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedJourney } from '../bench/seed-journey.js';
import { resolvePeriod } from '../src/core/stats/period.js';
import { createClickhouse, type Clickhouse } from '../src/olap/clickhouse.js';
import { createJourneyStats } from '../src/olap/journey-stats.js';
import { migrateClickhouse } from '../src/olap/migrate.js';
import { createLogger } from '../src/shared/logger.js';

const log = createLogger({ level: 'warn', pretty: false });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-journey-pass-'));
const ORG = 3;
const now = new Date();
let ch: Clickhouse;

beforeAll(async () => {
  ch = await createClickhouse({ url: undefined, database: 'journey_pass', dataDir, log });
  await migrateClickhouse(ch.client, log);
  await seedJourney({ clickhouse: ch } as Parameters<typeof seedJourney>[0], ORG, 20_000);
  // After the merge: a repeated event id, a late event of an old session, an identified user and
  // a goal, all unmerged, as a running server has them between merges.
  const [old] = await (
    await ch.client.query({
      query:
        'SELECT session_id, toString(ts) AS at FROM journey_events WHERE ts > now() - INTERVAL 20 DAY ORDER BY ts LIMIT 1',
      format: 'JSONEachRow',
    })
  ).json<{ session_id: string; at: string }>();
  const [repeated] = await (
    await ch.client.query({ query: 'SELECT * FROM journey_events ORDER BY ts DESC LIMIT 1', format: 'JSONEachRow' })
  ).json<Record<string, unknown>>();
  await ch.client.insert({ table: 'journey_events', values: [repeated], format: 'JSONEachRow' });
  await ch.client.insert({
    table: 'journey_events',
    values: [
      {
        event_id: crypto.randomUUID(),
        ts: old!.at,
        organization_id: ORG,
        app_id: 1,
        session_id: old!.session_id,
        platform: 'WEB',
        event_type: 'late',
        properties: '{}',
        external_user_id: 'late-user',
      },
    ],
    format: 'JSONEachRow',
  });
  await ch.client.insert({
    table: 'journey_funnel',
    values: [
      {
        event_id: crypto.randomUUID(),
        ts: old!.at,
        organization_id: ORG,
        app_id: 1,
        session_id: old!.session_id,
        platform: 'WEB',
        stage: 'GOAL_COMPLETED',
        goal_type: 'purchase',
        goal_value: 12.5,
        currency: 'EUR',
      },
    ],
    format: 'JSONEachRow',
  });
  // One user in two sessions of one day: the day's users are fewer than its identified sessions.
  const at = now.getTime() - 2 * 86_400_000;
  await ch.client.insert({
    table: 'journey_session_starts',
    values: [1, 2].map((n) => ({
      event_id: crypto.randomUUID(),
      ts: new Date(at + n).toISOString().replace('T', ' ').replace('Z', ''),
      organization_id: ORG,
      app_id: 1,
      session_id: sessionIdAt(at + n, n),
      platform: 'IOS',
      external_user_id: 'twice-user',
      utm_source: 'kakao',
    })),
    format: 'JSONEachRow',
  });
});

/** A session id as the service issues it: a UUIDv7 carrying the session's start. */
function sessionIdAt(ms: number, n: number): string {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}-7000-9000-${String(n).padStart(12, '0')}`;
}

afterAll(async () => {
  await ch?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000).toISOString().slice(0, 10);

describe('journey dashboard in one pass per table', () => {
  it('an organization without sessions: zeros, not a missing average', async () => {
    const period = resolvePeriod({ startDate: daysAgo(6), timeZone: 'Asia/Kathmandu', retentionDays: 1825, now });
    const stats = createJourneyStats(ch.client);
    const empty = {
      sessions: 0,
      uniqueUsers: 0,
      identifiedSessions: 0,
      sessionsWithTransition: 0,
      convertedSessions: 0,
      bouncedSessions: 0,
      averageDurationMs: 0,
      reached: [0, 0, 0, 0, 0],
    };
    expect((await stats.sessionFigures(ORG + 1, period)).all).toEqual(empty);
    expect((await stats.dashboard(ORG + 1, period)).figures.all).toEqual(empty);
  });

  for (const timeZone of ['Asia/Seoul', 'Asia/Kathmandu']) {
    for (const startDate of [daysAgo(364), daysAgo(29)]) {
      it(`${timeZone} from ${startDate}`, async () => {
        const period = resolvePeriod({ startDate, timeZone, retentionDays: 1825, now });
        const stats = createJourneyStats(ch.client);
        const [figures, activity, daily, transitions] = await Promise.all([
          stats.sessionFigures(ORG, period),
          stats.activityTotals(ORG, period),
          stats.daily(ORG, period),
          stats.transitionPaths(ORG, period),
        ]);
        expect(figures.all.sessions).toBeGreaterThan(100);
        expect(transitions.total).toBeGreaterThan(0);
        expect(activity.revenue.length).toBeGreaterThan(0);
        expect(await stats.dashboard(ORG, period)).toEqual({ figures, activity, daily, transitions });
      });
    }
  }
});
