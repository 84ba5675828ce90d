// The statistics benchmarks' deep-link events, generated inside ClickHouse with numbers(): the
// busy URL's and the busy campaign's installs, resolution attempts (first launches and
// re-engagements, matched or failed for one of a dozen reasons) and funnel stages of their
// sessions (each session's stages minutes apart), uniform over the last 365 days, so the install
// statistics read as much as a busy link's dashboard would. Then the rollups are merged (settle.ts).
import type { Container } from '../src/container.js';
import type { BenchLinks } from './seed-clicks.js';
import { settle } from './settle.js';

/** The rollups the deep-link inserts feed (sql/clickhouse/0016), merged once the events are in. */
const DEEP_LINK_ROLLUPS = [
  'deeplink_funnel_sessions_15m',
  'deeplink_first_launches_15m',
  'deeplink_first_launches_1h',
  'app_installs_15m',
  'app_installs_1h',
  'deeplink_attempts_15m',
  'deeplink_attempts_1h',
] as const;

/** `app`: the bench's mobile app; every other event goes to it, the rest to an app id next to it. */
export async function seedDeepLinks(
  container: Container,
  ids: BenchLinks & { app: number },
  total: number,
): Promise<void> {
  const client = container.clickhouse.client;
  const params = { org: ids.org, busy: ids.busy, campaign: ids.campaign, app: ids.app, n: total };
  // Of the events: 10 % installs, 40 % resolution attempts, 50 % funnel stages; 80 % of each the
  // busy URL's, the rest the campaign's.
  const link = `if(number % 5 = 0, 'campaign', 'url'), if(number % 5 = 0, {campaign:UInt64}, {busy:UInt64})`;
  const at = 'now64(3) - toIntervalMillisecond(rand64() % (365 * 86400000))';
  await client.command({
    query: `INSERT INTO app_installs (event_id, ts, organization_id, app_id, platform, link_type, link_id, match_type, confidence, country, os_version, session_id)
      SELECT generateUUIDv7(), ${at}, {org:UInt64}, {app:UInt64} + number % 2, ['IOS', 'ANDROID'][1 + number % 2], ${link},
        ['referrer', 'fingerprint', 'clipboard'][1 + rand() % 3], 50 + rand() % 51, ['KR', 'US', 'JP', 'DE', 'NP'][1 + rand() % 5], '17.4', ''
      FROM numbers(intDiv({n:UInt64}, 10))`,
    query_params: params,
  });
  await client.command({
    query: `INSERT INTO deeplink_resolutions (event_id, ts, organization_id, app_id, platform, method, matched, match_type, confidence,
        failure_reason, link_type, link_id, reengagement, user_key)
      SELECT generateUUIDv7(), ${at}, {org:UInt64}, {app:UInt64} + number % 2, ['IOS', 'ANDROID'][1 + number % 2],
        ['fingerprint', 'token', 'referrer'][1 + rand() % 3], toUInt8(intDiv(number, 2) % 3 != 0) AS ok, if(ok = 1, 'fingerprint', ''), rand() % 101,
        if(ok = 1, '', ['expired_token', 'unknown_token', 'no_candidate', 'below_threshold', 'link_deleted', 'app_mismatch',
         'rate_limited', 'bad_signature', 'stale_click', 'no_signals', 'ambiguous', 'other'][1 + rand() % 12]),
        ${link}, toUInt8(rand() % 4 = 0), concat('user-', toString(rand() % 100000))
      FROM numbers(intDiv({n:UInt64} * 4, 10))`,
    query_params: params,
  });
  // A funnel session is three stages of one link, app and platform, minutes apart, at a time of the
  // year of its own.
  const session = 'intDiv(number, 3)';
  await client.command({
    query: `INSERT INTO deeplink_funnel (event_id, ts, organization_id, app_id, platform, session_id, stage, link_type, link_id, source)
      SELECT generateUUIDv7(),
        now64(3) - toIntervalMillisecond(sipHash64(${session}) % (365 * 86400000)) + toIntervalMinute(number % 3 * 4),
        {org:UInt64}, {app:UInt64} + ${session} % 2, ['IOS', 'ANDROID'][1 + ${session} % 2],
        concat('s-', toString(${session})), toUInt8(1 + number % 3 + intDiv(rand() % 4, 3)),
        if(${session} % 5 = 0, 'campaign', 'url'), if(${session} % 5 = 0, {campaign:UInt64}, {busy:UInt64}), 'landing'
      FROM numbers(intDiv({n:UInt64}, 2))`,
    query_params: params,
  });
  await settle(container, DEEP_LINK_ROLLUPS);
}
