// ClickHouse for data teams: every table and column says what it holds, the stable _v1 views keep
// their columns, and the ten queries of docs/clickhouse.md answer what they promise on known data
// (clicks around midnight in Seoul, a bot, an app's funnel and purchases, installs, sessions).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { serviceForFile } from './support/service.js';

const ORG = 9_101;
const APP = 5;
const GUIDE = fs.readFileSync(path.resolve(import.meta.dirname, '..', 'docs', 'clickhouse.md'), 'utf8');

/** The guide's queries, in order, with their headings. */
const queries = [...GUIDE.matchAll(/^### (\d+)\. (.+)\n\n```sql\n([\s\S]*?)```/gm)].map((m) => ({
  n: Number(m[1]),
  title: m[2]!,
  sql: m[3]!,
}));

const uuid = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
let nextId = 1;

async function insert(table: string, rows: Record<string, unknown>[]): Promise<void> {
  await svc.container.clickhouse.client.insert({
    table,
    values: rows.map((r) => ({ event_id: uuid(nextId++), organization_id: ORG, ...r })),
    format: 'JSONEachRow',
  });
}

const click = (ts: string, country: string, device: string, os: string, extra: Record<string, unknown> = {}) => ({
  ts,
  link_type: 'url',
  link_id: 11,
  host: 'localhost',
  country,
  device_type: device,
  os,
  browser: 'Chrome',
  is_bot: 0,
  ...extra,
});

/** Runs a guide query with the parameters it names. */
async function run(sql: string, params: Record<string, string | number>): Promise<Record<string, unknown>[]> {
  const named = new Set([...sql.matchAll(/\{(\w+):/g)].map((m) => m[1]!));
  const query_params = Object.fromEntries(Object.entries(params).filter(([k]) => named.has(k)));
  const result = await svc.container.clickhouse.client.query({
    query: sql,
    query_params,
    format: 'JSONEachRow',
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
  });
  return result.json();
}

const svc = serviceForFile();

beforeAll(async () => {
  // Short URL 11: three clicks late on 1 March UTC (the morning of 2 March in Seoul), one on
  // 2 March, and a bot. Campaign 12: two clicks.
  await insert('clicks', [
    click('2026-03-01 23:30:00.000', 'KR', 'Mobile', 'iOS'),
    click('2026-03-01 23:45:00.000', 'KR', 'Mobile', 'iOS'),
    click('2026-03-01 23:50:00.000', 'US', 'Desktop', 'Windows'),
    click('2026-03-02 10:00:00.000', 'KR', 'Mobile', 'Android'),
    click('2026-03-02 11:00:00.000', 'KR', 'Desktop', 'Windows', { is_bot: 1 }),
    click('2026-03-02 01:00:00.000', 'JP', 'Mobile', 'iOS', { link_type: 'campaign', link_id: 12 }),
    click('2026-03-02 01:10:00.000', 'JP', 'Mobile', 'iOS', { link_type: 'campaign', link_id: 12 }),
  ]);
  // Four funnel sessions of app 5: all clicked, three reached the store, two went all the way; s1
  // bought twice (USD and KRW), s2 once.
  const stages: [string, string[]][] = [
    ['CLICKED', ['s1', 's2', 's3', 's4']],
    ['STORE_VISITED', ['s1', 's2', 's3']],
    ['APP_INSTALLED', ['s1', 's2']],
    ['APP_OPENED', ['s1', 's2']],
    ['DEEP_LINK_RESOLVED', ['s1', 's2']],
  ];
  const funnel = stages.flatMap(([stage, sessions]) => sessions.map((session_id) => ({ stage, session_id })));
  await insert('deeplink_funnel', [
    ...funnel.map((f) => ({
      ...f,
      ts: '2026-03-02 02:00:00.000',
      app_id: APP,
      platform: 'IOS',
      link_type: 'url',
      link_id: 11,
      source: 'sdk',
    })),
    ...[
      ['s1', 12.5, 'USD'],
      ['s1', 9900, 'KRW'],
      ['s2', 7.5, 'USD'],
    ].map(([session_id, goal_value, currency]) => ({
      ts: '2026-03-02 02:30:00.000',
      app_id: APP,
      platform: 'IOS',
      session_id,
      stage: 'GOAL_COMPLETED',
      goal_type: 'PURCHASE',
      goal_value,
      currency,
      link_type: 'url',
      link_id: 11,
      source: 'sdk',
    })),
  ]);
  await insert('app_installs', [
    {
      ts: '2026-03-02 02:00:00.000',
      app_id: APP,
      platform: 'IOS',
      link_type: 'url',
      link_id: 11,
      match_type: 'referrer',
      confidence: 100,
    },
    {
      ts: '2026-03-02 02:01:00.000',
      app_id: APP,
      platform: 'ANDROID',
      link_type: 'url',
      link_id: 11,
      match_type: 'referrer',
      confidence: 100,
    },
    {
      ts: '2026-03-02 02:02:00.000',
      app_id: APP,
      platform: 'IOS',
      link_type: 'campaign',
      link_id: 12,
      match_type: 'fingerprint',
      confidence: 80,
    },
    {
      ts: '2026-03-02 02:03:00.000',
      app_id: APP,
      platform: 'IOS',
      link_type: 'none',
      link_id: 0,
      match_type: 'organic',
      confidence: 0,
    },
  ]);
  // Journeys: J1 on the web from a newsletter (three events over 90 s, then into the app at 120 s),
  // J2 in the app (one event, back to the web at 8 s), J3 a web visit with nothing after it.
  await insert('journey_session_starts', [
    { ts: '2026-03-02 03:00:00.000', app_id: APP, session_id: 'J1', platform: 'WEB', utm_source: 'newsletter' },
    { ts: '2026-03-02 03:05:00.000', app_id: APP, session_id: 'J2', platform: 'IOS' },
    { ts: '2026-03-02 03:10:00.000', app_id: APP, session_id: 'J3', platform: 'WEB' },
  ]);
  await insert('journey_events', [
    {
      ts: '2026-03-02 03:00:00.000',
      app_id: APP,
      session_id: 'J1',
      platform: 'WEB',
      event_type: 'page_view',
      properties: '{"path":"/"}',
    },
    {
      ts: '2026-03-02 03:00:30.000',
      app_id: APP,
      session_id: 'J1',
      platform: 'WEB',
      event_type: 'page_view',
      properties: '{"path":"/items/42"}',
    },
    {
      ts: '2026-03-02 03:01:30.000',
      app_id: APP,
      session_id: 'J1',
      platform: 'WEB',
      event_type: 'add_to_cart',
      properties: '{}',
    },
    {
      ts: '2026-03-02 03:05:05.000',
      app_id: APP,
      session_id: 'J2',
      platform: 'IOS',
      event_type: 'screen_view',
      properties: '{}',
    },
  ]);
  await insert('journey_transitions', [
    { ts: '2026-03-02 03:02:00.000', app_id: APP, session_id: 'J1', from_platform: 'WEB', to_platform: 'IOS' },
    { ts: '2026-03-02 03:05:08.000', app_id: APP, session_id: 'J2', from_platform: 'IOS', to_platform: 'WEB' },
  ]);
});

describe(`ClickHouse for data teams (${backend})`, () => {
  it('says in a comment what every table and every stored column holds', async () => {
    const tables = await svc.clickhouse<{ name: string; comment: string }>(
      'SELECT name, comment FROM system.tables WHERE database = currentDatabase() ORDER BY name',
    );
    expect(tables.length).toBeGreaterThan(20);
    expect(tables.filter((t) => t.comment.trim() === '').map((t) => t.name)).toEqual([]);
    const columns = await svc.clickhouse<{ table: string; name: string; comment: string }>(
      `SELECT table, name, comment FROM system.columns
       WHERE database = currentDatabase() AND table IN (SELECT name FROM system.tables WHERE database = currentDatabase() AND engine NOT IN ('View', 'MaterializedView'))`,
    );
    expect(columns.length).toBeGreaterThan(150);
    expect(columns.filter((c) => c.comment.trim() === '').map((c) => `${c.table}.${c.name}`)).toEqual([]);
    // Times are said to be UTC wherever a column holds one.
    const times = await svc.clickhouse<{ table: string; name: string; comment: string }>(
      "SELECT table, name, comment FROM system.columns WHERE database = currentDatabase() AND type LIKE 'DateTime%' AND table NOT LIKE '%\\_v1' AND table NOT LIKE '%\\_mv'",
    );
    expect(times.filter((c) => !/UTC/.test(c.comment)).map((c) => `${c.table}.${c.name}`)).toEqual([]);
  });

  it('keeps the columns of the stable views as published', async () => {
    const rows = await svc.clickhouse<{ table: string; name: string; type: string }>(
      "SELECT table, name, type FROM system.columns WHERE database = currentDatabase() AND table LIKE '%\\_v1' ORDER BY table, position",
    );
    const views: Record<string, string[]> = {};
    for (const r of rows) (views[r.table] ??= []).push(`${r.name} ${r.type}`);
    const ids = ['event_id UUID', "ts DateTime64(3, 'UTC')", 'organization_id UInt64'];
    expect(views).toEqual({
      clicks_v1: [
        ...ids,
        'link_type String',
        'link_id UInt64',
        'host String',
        'cid String',
        'tracker String',
        'referrer_host String',
        'utm_source String',
        'utm_medium String',
        'utm_campaign String',
        'utm_term String',
        'utm_content String',
        'country String',
        'device_type String',
        'os String',
        'os_version String',
        'browser String',
        'accept_language String',
        'is_bot UInt8',
        'source String',
      ],
      installs_v1: [
        ...ids,
        'app_id UInt64',
        'platform String',
        'link_type String',
        'link_id UInt64',
        'match_type String',
        'confidence UInt8',
        'country String',
        'os_version String',
      ],
      funnel_events_v1: [
        ...ids,
        'app_id UInt64',
        'platform String',
        'session_id String',
        'stage String',
        'stage_number UInt8',
        'link_type String',
        'link_id UInt64',
        'goal_type String',
        'goal_value Float64',
        'currency String',
        'device_type String',
        'external_user_id String',
        'source String',
        'goal_text String',
      ],
      sessions_v1: [
        'organization_id UInt64',
        'session_id String',
        "started_at DateTime64(3, 'UTC')",
        "last_seen_at DateTime64(3, 'UTC')",
        'duration_seconds Float64',
        'app_id UInt64',
        'platform String',
        'utm_source String',
        'utm_medium String',
        'utm_campaign String',
        'external_user_id String',
        'events UInt64',
        'transitions UInt64',
        'funnel_stage_reached UInt8',
        'goals UInt64',
      ],
      journey_events_v1: [
        ...ids,
        'app_id UInt64',
        'session_id String',
        'platform String',
        'event_type String',
        'properties String',
        'external_user_id String',
      ],
      transitions_v1: [
        ...ids,
        'app_id UInt64',
        'session_id String',
        'from_platform String',
        'to_platform String',
        'target_session_id String',
        'link_type String',
        'link_id UInt64',
        'external_user_id String',
      ],
    });
    // The views read what the tables hold, without addresses or user agents.
    const [counts] = await svc.clickhouse<{ clicks: number; people: number; sessions: number }>(
      `SELECT (SELECT count() FROM clicks_v1 WHERE organization_id = {org:UInt64}) AS clicks,
              (SELECT count() FROM clicks_v1 WHERE organization_id = {org:UInt64} AND is_bot = 0) AS people,
              (SELECT count() FROM sessions_v1 WHERE organization_id = {org:UInt64}) AS sessions`,
      { org: ORG },
    );
    expect(counts).toEqual({ clicks: 7, people: 6, sessions: 3 });
  });

  it('has ten ready queries, each answering what its heading says', async () => {
    expect(queries.map((q) => q.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const params = { org: ORG, link: 11, app: APP, from: '2026-03-01', to: '2026-03-02' };
    const seoul = { ...params, tz: 'Asia/Seoul' };
    const answers = await Promise.all(queries.map((q) => run(q.sql, seoul)));
    const [daily, countries, busiest, devices, funnel, installs, revenue, lengths, transitions, sources] = answers;
    // 1: the late-evening clicks of 1 March UTC are the morning of 2 March in Seoul; the bot is left out.
    expect(daily).toEqual([{ day: '2026-03-02', clicks: 4 }]);
    expect(await run(queries[0]!.sql, { ...params, tz: 'UTC' })).toEqual([
      { day: '2026-03-01', clicks: 3 },
      { day: '2026-03-02', clicks: 1 },
    ]);
    expect(countries).toEqual([
      { country: 'KR', clicks: 3 },
      { country: 'JP', clicks: 2 },
      { country: 'US', clicks: 1 },
    ]);
    expect(busiest).toEqual([
      { link_type: 'url', link_id: 11, clicks: 4 },
      { link_type: 'campaign', link_id: 12, clicks: 2 },
    ]);
    expect(devices).toEqual([
      { device_type: 'Mobile', os: 'iOS', people: 4, bots: 0 },
      { device_type: 'Desktop', os: 'Windows', people: 1, bots: 1 },
      { device_type: 'Mobile', os: 'Android', people: 1, bots: 0 },
    ]);
    expect(funnel).toEqual([
      { stage: 'CLICKED', sessions: 4, percent_of_clicks: 100, percent_of_previous: 100 },
      { stage: 'STORE_VISITED', sessions: 3, percent_of_clicks: 75, percent_of_previous: 75 },
      { stage: 'APP_INSTALLED', sessions: 2, percent_of_clicks: 50, percent_of_previous: 66.7 },
      { stage: 'APP_OPENED', sessions: 2, percent_of_clicks: 50, percent_of_previous: 100 },
      { stage: 'DEEP_LINK_RESOLVED', sessions: 2, percent_of_clicks: 50, percent_of_previous: 100 },
      { stage: 'GOAL_COMPLETED', sessions: 2, percent_of_clicks: 50, percent_of_previous: 100 },
    ]);
    expect(installs).toEqual([
      { source: 'url 11', match_type: 'referrer', installs: 2 },
      { source: 'campaign 12', match_type: 'fingerprint', installs: 1 },
      { source: 'organic', match_type: 'organic', installs: 1 },
    ]);
    expect(revenue).toEqual([
      { currency: 'KRW', purchases: 1, revenue: 9900 },
      { currency: 'USD', purchases: 2, revenue: 20 },
    ]);
    expect(lengths).toEqual([
      { length: '0-10 s', sessions: 2 },
      { length: '1-5 min', sessions: 1 },
    ]);
    expect(transitions).toEqual([
      { day: '2026-03-02', from_platform: 'IOS', to_platform: 'WEB', transitions: 1 },
      { day: '2026-03-02', from_platform: 'WEB', to_platform: 'IOS', transitions: 1 },
    ]);
    expect(sources).toEqual([
      { platform: 'IOS', source: '(none)', sessions: 1, events_per_session: 1 },
      { platform: 'WEB', source: '(none)', sessions: 1, events_per_session: 0 },
      { platform: 'WEB', source: 'newsletter', sessions: 1, events_per_session: 3 },
    ]);
  });
});
