// The statistics benchmarks' clicks, generated inside ClickHouse with numbers() so the
// materialized views fill the rollups exactly as real inserts do: one busy short URL with most of
// them over the last year, one quiet URL, a busy campaign with cids and trackers. Then the rollups
// are merged (settle.ts).
import type { Container } from '../src/container.js';
import { settle } from './settle.js';

/** The rollups the click inserts feed (sql/clickhouse), merged once the clicks are in. */
const CLICK_ROLLUPS = [
  'link_click_totals',
  'click_series_15m',
  'click_dims_15m',
  'click_series_1h',
  'click_dims_1h',
  'click_cids_15m',
  'click_cids_1d',
] as const;

export interface BenchLinks {
  org: number;
  busy: number;
  quiet: number;
  campaign: number;
}

export async function seedClicks(container: Container, ids: BenchLinks, total: number): Promise<void> {
  // 80 % busy URL, 15 % busy campaign, 5 % spread over 1,000 other links of the organization,
  // plus 1,000 clicks on the quiet URL; times uniform over the last 365 days.
  await container.clickhouse.client.command({
    query: `INSERT INTO clicks (event_id, ts, organization_id, link_type, link_id, host, cid, tracker, referrer_host, country, device_type, os, browser, is_bot, visitor_hash)
      WITH now64(3) - toIntervalMillisecond(rand64() % (365 * 86400000)) AS at
      SELECT generateUUIDv7(),
        at,
        {org:UInt64},
        if(number % 20 < 16, 'url', if(number % 20 < 19, 'campaign', 'url')),
        multiIf(number % 20 < 16, {busy:UInt64}, number % 20 < 19, {campaign:UInt64}, 1000000 + number % 1000),
        'localhost',
        if(number % 20 BETWEEN 16 AND 18, concat('user-', toString(number % 5000)), ''),
        ['', 'insta', 'kakao', 'naver'][1 + number % 4],
        ['', 'm.facebook.com', 't.co', 'search.naver.com', 'www.google.com'][1 + number % 5],
        ['KR', 'US', 'JP', 'DE', 'BR', 'IN', 'NP', 'GB'][1 + rand() % 8],
        ['Mobile', 'Mobile', 'Desktop', 'Tablet'][1 + rand() % 4],
        ['iOS', 'Android', 'Windows', 'macOS'][1 + rand() % 4],
        ['Mobile Safari', 'Chrome', 'Samsung Internet', 'Firefox'][1 + rand() % 4],
        if(rand() % 50 = 0, 1, 0),
        -- a visitor hash under the day's salt, as the service stores it (here one visitor per
        -- click), so the visitor sketches merge real distinct counts
        cityHash64(toDate(at), number)
      FROM numbers({n:UInt64})`,
    query_params: { org: ids.org, busy: ids.busy, campaign: ids.campaign, n: total },
  });
  await container.clickhouse.client.command({
    query: `INSERT INTO clicks (event_id, ts, organization_id, link_type, link_id, host, country, device_type, os, browser, is_bot)
      SELECT generateUUIDv7(), now64(3) - toIntervalMillisecond(rand64() % (30 * 86400000)), {org:UInt64}, 'url', {quiet:UInt64}, 'localhost', 'KR', 'Mobile', 'iOS', 'Mobile Safari', 0
      FROM numbers(1000)`,
    query_params: { org: ids.org, quiet: ids.quiet },
  });
  await settle(container, CLICK_ROLLUPS);
}
