// npm run bench:stats [-- --clicks 10000000] [--journey-events 10000000] [--deeplink-events 2000000] [--requests 200]
//   [--match 'installs|campaign'] (only the endpoints whose label matches)
//
// Loads synthetic clicks into the embedded ClickHouse (generated inside ClickHouse with numbers(),
// so the materialized views fill the rollups exactly as real inserts do): one busy short URL with
// most of them over the last year, one quiet URL, a busy campaign with cids and trackers. Then
// times the statistics endpoints over real HTTP (the service listening on loopback) and prints
// p50/p99 per endpoint and link, and how many ClickHouse queries one request of it makes. User
// journeys (sessions, events, transitions, funnel stages) are generated the same way and every
// journey statistic is timed too, and so are the busy links' and an app's install statistics over deep-link events
// (installs, resolution attempts, funnel stages: bench/seed-deeplinks.ts) and the app's
// deferred-match statistics.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createContainer } from '../src/container.js';
import { loadConfig } from '../src/shared/config.js';
import { createLogger } from '../src/shared/logger.js';
import { seedClicks } from './seed-clicks.js';
import { seedDeepLinks } from './seed-deeplinks.js';
import { seedJourney } from './seed-journey.js';

const { values: args } = parseArgs({
  options: {
    clicks: { type: 'string', default: '10000000' },
    'journey-events': { type: 'string', default: '10000000' },
    'deeplink-events': { type: 'string', default: '2000000' },
    requests: { type: 'string', default: '200' },
    // only the endpoints whose label matches this regular expression (all by default)
    match: { type: 'string', default: '' },
  },
});
const total = Number(args.clicks);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-stats-bench-'));
const ADMIN = 'bench-admin-token-0123456789abcdefghij';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main(): Promise<void> {
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SIGNPOST_ADMIN_TOKEN: ADMIN,
    PII_ENCRYPTION_KEY: `k1:${'ab'.repeat(32)}`,
    // The embedded engines' memory settings pass through, so their effect on these timings shows.
    ...Object.fromEntries(
      Object.entries(process.env).filter(([k]) => k.startsWith('CLICKHOUSE_EMBEDDED_') || k.startsWith('PGLITE_')),
    ),
  });
  const container = await createContainer(config, createLogger({ level: 'warn', pretty: false }));
  try {
    const base = await container.listen();
    const post = async (url: string, body: unknown, headers: Record<string, string>) =>
      (
        await fetch(`${base}${url}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        })
      ).json() as Promise<Record<string, unknown>>;
    const org = await post(
      '/api/admin/v1/organizations',
      { name: 'StatsBench', plan: 'ENTERPRISE' },
      { authorization: `Bearer ${ADMIN}` },
    );
    const key = { 'x-api-key': org.apiKey as string };
    const busy = await post('/api/v1/service/urls', { url: 'https://example.com/busy' }, key);
    const quiet = await post('/api/v1/service/urls', { url: 'https://example.com/quiet' }, key);
    const campaign = await post(
      '/api/v1/service/campaigns',
      { name: 'Busy campaign', originalUrl: 'https://example.com/c' },
      key,
    );
    const app = await post(
      '/api/v1/service/mobile-apps',
      { platform: 'IOS', appName: 'Bench', bundleId: 'com.example.bench', scheme: 'bench://' },
      key,
    );

    // Every ClickHouse read goes through client.query: count them, to tell queries per request.
    const client = container.clickhouse.client;
    const query = client.query.bind(client);
    let queries = 0;
    client.query = ((params: Parameters<typeof query>[0]) => {
      queries++;
      return query(params);
    }) as typeof client.query;

    const started = Date.now();
    await seedClicks(
      container,
      { org: org.id as number, busy: busy.id as number, quiet: quiet.id as number, campaign: campaign.id as number },
      total,
    );
    console.log(`loaded ${total.toLocaleString()} clicks in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const deepLinkEvents = Number(args['deeplink-events']);
    const deepLinksStarted = Date.now();
    await seedDeepLinks(
      container,
      {
        org: org.id as number,
        busy: busy.id as number,
        quiet: quiet.id as number,
        campaign: campaign.id as number,
        app: app.id as number,
      },
      deepLinkEvents,
    );
    console.log(
      `loaded ${deepLinkEvents.toLocaleString()} deep-link events in ${((Date.now() - deepLinksStarted) / 1000).toFixed(1)} s`,
    );
    const journeyEvents = Number(args['journey-events']);
    const journeyStarted = Date.now();
    await seedJourney(container, org.id as number, journeyEvents);
    console.log(
      `loaded ${journeyEvents.toLocaleString()} journey events in ${((Date.now() - journeyStarted) / 1000).toFixed(1)} s`,
    );
    const journey = '/api/v1/cross-platform/stats';
    const year = `startDate=${daysAgo(364)}&timeZone=Asia/Seoul`;

    const cases = [
      ['busy URL, last 30 days', `/api/v1/service/urls/${busy.id}/stats`],
      [
        'busy URL, 365 days, Asia/Seoul',
        `/api/v1/service/urls/${busy.id}/stats?startDate=${daysAgo(364)}&timeZone=Asia/Seoul`,
      ],
      [
        'busy URL, 365 days, Asia/Kathmandu',
        `/api/v1/service/urls/${busy.id}/stats?startDate=${daysAgo(364)}&timeZone=Asia/Kathmandu`,
      ],
      ['busy URL installs, last 30 days', `/api/v1/service/urls/${busy.id}/app-install-stats`],
      [
        'busy URL installs, 365 d, Seoul',
        `/api/v1/service/urls/${busy.id}/app-install-stats?startDate=${daysAgo(364)}&timeZone=Asia/Seoul`,
      ],
      [
        'busy URL installs, 365 d, Kathmandu',
        `/api/v1/service/urls/${busy.id}/app-install-stats?startDate=${daysAgo(364)}&timeZone=Asia/Kathmandu`,
      ],
      [
        'busy campaign installs, 365 d, Seoul',
        `/api/v1/service/campaigns/${campaign.id}/app-install-stats?startDate=${daysAgo(364)}&timeZone=Asia/Seoul`,
      ],
      [
        'app installs, 365 d, Seoul',
        `/api/v1/service/mobile-apps/${app.id}/install-stats?startDate=${daysAgo(364)}&timeZone=Asia/Seoul`,
      ],
      [
        'app deferred matches, 365 d, Seoul',
        `/api/v1/service/mobile-apps/${app.id}/deferred-match-stats?startDate=${daysAgo(364)}&timeZone=Asia/Seoul`,
      ],
      [
        'app deferred matches, 365 d, Kathmandu',
        `/api/v1/service/mobile-apps/${app.id}/deferred-match-stats?startDate=${daysAgo(364)}&timeZone=Asia/Kathmandu`,
      ],
      ['quiet URL, last 30 days', `/api/v1/service/urls/${quiet.id}/stats`],
      ['busy campaign, last 30 days', `/api/v1/service/campaigns/${campaign.id}/stats`],
      [
        'busy campaign, 365 days, Seoul',
        `/api/v1/service/campaigns/${campaign.id}/stats?startDate=${daysAgo(364)}&timeZone=Asia/Seoul`,
      ],
      [
        'busy campaign, 365 days, Kathmandu',
        `/api/v1/service/campaigns/${campaign.id}/stats?startDate=${daysAgo(364)}&timeZone=Asia/Kathmandu`,
      ],
      ['busy campaign, one customId', `/api/v1/service/campaigns/${campaign.id}/stats?customId=user-16`],
      // Filters (contract: "Filters and shared statistics"): no rollup holds a country by device, so
      // these read the raw clicks of the link and period.
      ['busy URL, 30 days, KR + mobile', `/api/v1/service/urls/${busy.id}/stats?country=KR&deviceType=mobile`],
      [
        'busy URL, 365 d, Seoul, KR + mobile',
        `/api/v1/service/urls/${busy.id}/stats?startDate=${daysAgo(364)}&timeZone=Asia/Seoul&country=KR&deviceType=mobile`,
      ],
      [
        'busy URL, 365 d, Seoul, naver referrer',
        `/api/v1/service/urls/${busy.id}/stats?startDate=${daysAgo(364)}&timeZone=Asia/Seoul&referrer=search.naver.com`,
      ],
      [
        'busy campaign, 30 days, KR + mobile',
        `/api/v1/service/campaigns/${campaign.id}/stats?country=KR&deviceType=mobile`,
      ],
      [
        'busy campaign, 365 d, Seoul, KR + mobile',
        `/api/v1/service/campaigns/${campaign.id}/stats?startDate=${daysAgo(364)}&timeZone=Asia/Seoul&country=KR&deviceType=mobile`,
      ],
      ['journey dashboard, last 30 days', `${journey}/dashboard`],
      ['journey dashboard, 365 days, Seoul', `${journey}/dashboard?${year}`],
      ['journey summary, last 30 days', `${journey}/summary`],
      ['journey daily, 365 days, Seoul', `${journey}/daily?${year}`],
      ['journey sessions summary, 30 days', `${journey}/sessions/summary`],
      ['journey sessions by platform', `${journey}/sessions/by-platform`],
      ['journey sessions by UTM source', `${journey}/sessions/by-utm-source`],
      ['journey sessions list, page 1', `${journey}/sessions/list`],
      ['journey transitions summary', `${journey}/transitions/summary`],
      ['journey transitions trend, 365 d', `${journey}/transitions/trend?${year}`],
    ] as const;
    const only = new RegExp(args.match);
    for (const [label, url] of cases.filter(([label]) => only.test(label))) {
      const times: number[] = [];
      const queriesBefore = queries;
      for (let i = 0; i < Number(args.requests); i++) {
        const t0 = performance.now();
        const res = await fetch(`${base}${url}`, { headers: key });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const perRequest = (queries - queriesBefore) / times.length;
      console.log(
        `${label.padEnd(38)} p50 ${percentile(times, 50).toFixed(1)} ms  p99 ${percentile(times, 99).toFixed(1)} ms  ${perRequest.toFixed(1)} ClickHouse queries per request`,
      );
    }
  } finally {
    await container.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function daysAgo(n: number): string {
  return new Date(Date.now() - n * 86400_000).toISOString().slice(0, 10);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
