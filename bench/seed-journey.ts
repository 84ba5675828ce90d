// The statistics benchmarks' user journeys, generated inside ClickHouse with numbers() so the
// materialized views fill journey_sessions exactly as real inserts do. One session per five
// events, each started at a random time of the last 365 days with the UUIDv7 id the service would
// have issued for that start; its events follow within ten minutes. A tenth of the sessions move
// to another platform, every session is CLICKED, a third reach CONTENT_VIEWED, one in twenty
// completes a goal. Then the journey tables are merged (settle.ts).
import type { Container } from '../src/container.js';
import { settle } from './settle.js';

/** Session k's start (ms) and id, in SQL, the same whichever table is being filled (one `now` for all). */
const SESSION = (k: string) => `
  {now:UInt64} - cityHash64(${k}) % 31536000000 AS start_ms,
  leftPad(lower(hex(start_ms)), 12, '0') AS h,
  concat(substring(h, 1, 8), '-', substring(h, 9, 4), '-7000-8000-', leftPad(lower(hex(${k})), 12, '0')) AS sid,
  fromUnixTimestamp64Milli(toInt64(start_ms), 'UTC') AS started`;

export async function seedJourney(container: Container, organizationId: number, events: number): Promise<void> {
  const sessions = Math.max(1, Math.floor(events / 5));
  const now = Date.now();
  const run = (query: string) =>
    container.clickhouse.client.command({ query, query_params: { org: organizationId, sessions, events, now } });
  await run(`INSERT INTO journey_session_starts (event_id, ts, organization_id, app_id, session_id, platform, external_user_id, utm_source, utm_medium, utm_campaign)
    WITH number AS k, ${SESSION('k')}
    SELECT generateUUIDv7(), started, {org:UInt64}, 1, sid, ['WEB', 'IOS', 'ANDROID'][1 + k % 3],
      if(k % 4 = 0, '', concat('user-', toString(k % 50000))),
      ['', 'kakao', 'naver', 'google', 'newsletter'][1 + k % 5], ['', 'cpc', 'email'][1 + k % 3], ['', 'spring', 'launch'][1 + k % 3]
    FROM numbers({sessions:UInt64})`);
  await run(`INSERT INTO journey_events (event_id, ts, organization_id, app_id, session_id, platform, event_type, properties, external_user_id)
    WITH number % {sessions:UInt64} AS k, ${SESSION('k')}
    SELECT generateUUIDv7(), started + toIntervalSecond(number % 600), {org:UInt64}, 1, sid, ['WEB', 'IOS', 'ANDROID'][1 + k % 3],
      ['page_view', 'screen_view', 'add_to_cart', 'search'][1 + number % 4], '{}', ''
    FROM numbers({events:UInt64})`);
  await run(`INSERT INTO journey_transitions (event_id, ts, organization_id, app_id, session_id, from_platform, to_platform, properties)
    WITH number * 10 AS k, ${SESSION('k')}
    SELECT generateUUIDv7(), started + toIntervalSecond(300), {org:UInt64}, 1, sid, ['WEB', 'IOS', 'ANDROID'][1 + k % 3], ['IOS', 'WEB', 'WEB'][1 + k % 3], '{}'
    FROM numbers(intDiv({sessions:UInt64}, 10))`);
  await run(`INSERT INTO journey_funnel (event_id, ts, organization_id, app_id, session_id, platform, stage, goal_type, goal_value, currency)
    WITH intDiv(number, 3) AS k, ${SESSION('k')}, number % 3 AS step
    SELECT generateUUIDv7(), started + toIntervalSecond(step * 60), {org:UInt64}, 1, sid, ['WEB', 'IOS', 'ANDROID'][1 + k % 3],
      ['CLICKED', 'CONTENT_VIEWED', 'GOAL_COMPLETED'][1 + step],
      if(step = 2, 'purchase', ''), if(step = 2, 10 + k % 90, 0), if(step = 2, ['KRW', 'USD'][1 + k % 2], '')
    FROM numbers(3 * {sessions:UInt64})
    WHERE step = 0 OR (step = 1 AND k % 3 = 0) OR (step = 2 AND k % 20 = 0)`);
  await settle(container, [
    'journey_session_starts',
    'journey_events',
    'journey_transitions',
    'journey_funnel',
    'journey_sessions',
  ]);
}
