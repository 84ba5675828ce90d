// App-install statistics of a short URL, a campaign and an app: known deep-link events in (through
// the real pipeline, as the landing page and SDK routes record them), exact figures out, in UTC
// and Asia/Seoul across the day boundary; the platform filter; the funnel's four stages; quality
// and re-engagement; 400s; another organization's ids.
import { beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../src/shared/ids.js';
import { expectError } from './support/error-body.js';
import { eventually, serviceForFile } from './support/service.js';
import { looseEvent } from './support/loose-event.js';

let org: { id: number; apiKey: string };
let iosApp: { id: number };
let androidApp: { id: number };
let url: { id: number; shortCode: string };
let campaign: { id: number; alias: string };

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; SM-S918N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
const KR_IP = '211.234.10.1';

const PERIOD = 'startDate=2025-06-01&endDate=2025-06-03';

type Event = { type: string; at: string; data: Record<string, unknown> };

/** Records events as the producers do and waits until the consumers have written all of them. */
async function record(events: Event[], organizationId = org.id): Promise<void> {
  for (const e of events) {
    svc.container.events.record(
      looseEvent({ eventId: uuidv7(), type: e.type, occurredAt: Date.parse(e.at), organizationId, data: e.data }),
    );
  }
  expect(await svc.container.events.flush(10_000)).toBe(true);
  expect(await svc.container.bus.drain(15_000)).toBe(true);
}

const click = (at: string, userAgent: string, linkType: 'url' | 'campaign', linkId: number): Event => ({
  type: 'click',
  at,
  data: { linkType, linkId, host: 'localhost', userAgent, ip: KR_IP, referrer: '', bot: false },
});
const install = (
  at: string,
  platform: 'IOS' | 'ANDROID',
  appId: number,
  link: { type: 'url' | 'campaign'; id: number } | null,
  matchType = 'fingerprint',
): Event => ({
  type: 'app_install',
  at,
  data: {
    appId,
    platform,
    linkType: link?.type ?? null,
    linkId: link?.id ?? null,
    matchType: link ? matchType : 'organic',
    confidence: link ? 80 : 0,
    ip: KR_IP,
    osVersion: '17.4',
    sessionId: null,
  },
});
const stage = (
  at: string,
  sessionId: string,
  name: string,
  appId: number,
  platform: 'IOS' | 'ANDROID',
  link: { type: 'url' | 'campaign'; id: number },
): Event => ({
  type: 'funnel_stage',
  at,
  data: { appId, platform, sessionId, stage: name, linkType: link.type, linkId: link.id, source: 'landing' },
});
const resolution = (at: string, appId: number, fields: Record<string, unknown>): Event => ({
  type: 'deeplink_resolution',
  at,
  data: {
    appId,
    platform: 'IOS',
    method: 'fingerprint',
    matched: false,
    matchType: null,
    confidence: 0,
    failureReason: null,
    linkType: 'url',
    linkId: url.id,
    reengagement: false,
    userKey: '',
    ...fields,
  },
});

const stats = (path: string, query = PERIOD) => svc.service('GET', `${path}?${query}`, org.apiKey);

const svc = serviceForFile();

beforeAll(async () => {
  org = await svc.createOrganization('Installs', 'ENTERPRISE');
  const app = (platform: 'IOS' | 'ANDROID', appName: string) =>
    svc.createApp(org, { platform, appName, bundleId: `com.acme.${platform.toLowerCase()}`, scheme: 'acme://' });
  iosApp = await app('IOS', 'Acme iOS');
  androidApp = await app('ANDROID', 'Acme Android');
  url = await svc.createLink(org, { url: 'https://example.com/p/1', iosAppId: iosApp.id, androidAppId: androidApp.id });
  campaign = await svc.createCampaign(org, {
    name: 'Summer',
    originalUrl: 'https://example.com/summer',
    androidAppId: androidApp.id,
  });

  const U = { type: 'url' as const, id: url.id };
  const C = { type: 'campaign' as const, id: campaign.id };
  await record([
    // Clicks on the URL: 4 iPhone, 2 Android, 2 desktop; on the campaign: 3 Android.
    ...['2025-06-01T10:00:00Z', '2025-06-01T14:00:00Z', '2025-06-01T15:10:00Z', '2025-06-02T09:00:00Z'].map((at) =>
      click(at, IPHONE, 'url', url.id),
    ),
    ...['2025-06-01T11:00:00Z', '2025-06-02T01:00:00Z'].map((at) => click(at, ANDROID, 'url', url.id)),
    ...['2025-06-01T12:00:00Z', '2025-06-02T12:00:00Z'].map((at) => click(at, DESKTOP, 'url', url.id)),
    ...['2025-06-02T05:00:00Z', '2025-06-02T06:00:00Z', '2025-06-03T06:00:00Z'].map((at) =>
      click(at, ANDROID, 'campaign', campaign.id),
    ),
    // Installs of the URL: two iOS on either side of midnight in Seoul (+9), one Android.
    install('2025-06-01T14:30:00Z', 'IOS', iosApp.id, U),
    install('2025-06-01T15:30:00Z', 'IOS', iosApp.id, U, 'referrer'),
    install('2025-06-02T03:00:00Z', 'ANDROID', androidApp.id, U, 'referrer'),
    // The campaign's Android install, an organic iOS one, and one outside the period.
    install('2025-06-02T07:00:00Z', 'ANDROID', androidApp.id, C, 'referrer'),
    install('2025-06-02T08:00:00Z', 'IOS', iosApp.id, null),
    install('2025-05-20T08:00:00Z', 'IOS', iosApp.id, U),
    // Funnel sessions of the URL: s1 all four stages (CLICKED twice), s2 up to the store, s3
    // installed without the store beacon, s4 clicked only.
    stage('2025-06-01T14:00:00Z', 's1', 'CLICKED', iosApp.id, 'IOS', U),
    stage('2025-06-01T14:00:05Z', 's1', 'CLICKED', iosApp.id, 'IOS', U),
    stage('2025-06-01T14:00:10Z', 's1', 'STORE_VISITED', iosApp.id, 'IOS', U),
    stage('2025-06-01T14:30:00Z', 's1', 'APP_INSTALLED', iosApp.id, 'IOS', U),
    stage('2025-06-01T14:30:01Z', 's1', 'APP_OPENED', iosApp.id, 'IOS', U),
    stage('2025-06-01T15:10:00Z', 's2', 'CLICKED', iosApp.id, 'IOS', U),
    stage('2025-06-01T15:10:03Z', 's2', 'STORE_VISITED', iosApp.id, 'IOS', U),
    stage('2025-06-01T11:00:00Z', 's3', 'CLICKED', androidApp.id, 'ANDROID', U),
    stage('2025-06-02T03:00:00Z', 's3', 'APP_INSTALLED', androidApp.id, 'ANDROID', U),
    stage('2025-06-02T09:00:00Z', 's4', 'CLICKED', iosApp.id, 'IOS', U),
    // Resolution attempts tied to the URL: 2 fingerprint matches, 1 below the threshold, 1 expired
    // token; re-engagement opens: 2 successful by one user, 1 failed.
    resolution('2025-06-01T14:30:00Z', iosApp.id, { matched: true, matchType: 'fingerprint', confidence: 85 }),
    resolution('2025-06-01T15:30:00Z', iosApp.id, { matched: true, matchType: 'fingerprint', confidence: 72 }),
    resolution('2025-06-01T16:00:00Z', iosApp.id, { failureReason: 'below_threshold', confidence: 40 }),
    resolution('2025-06-02T10:00:00Z', iosApp.id, { method: 'token', failureReason: 'expired_token' }),
    resolution('2025-06-02T11:00:00Z', iosApp.id, {
      method: 'token',
      matched: true,
      matchType: 'token',
      confidence: 100,
      reengagement: true,
      userKey: 'u1',
    }),
    resolution('2025-06-02T12:00:00Z', iosApp.id, {
      method: 'token',
      matched: true,
      matchType: 'token',
      confidence: 100,
      reengagement: true,
      userKey: 'u1',
    }),
    resolution('2025-06-02T13:00:00Z', androidApp.id, {
      method: 'token',
      platform: 'ANDROID',
      failureReason: 'unknown_token',
      reengagement: true,
      userKey: 'u2',
    }),
    // A fingerprint attempt with no candidate knows no link: it shows in the app's figures only.
    resolution('2025-06-02T14:00:00Z', iosApp.id, { failureReason: 'no_candidate', linkType: null, linkId: null }),
  ]);
  await eventually(
    async () => {
      const [row] = await svc.clickhouse<{ c: string }>(
        'SELECT toString(count()) AS c FROM app_installs WHERE organization_id = {o:UInt64}',
        { o: org.id },
      );
      return Number(row?.c) === 6;
    },
    15_000,
    'installs written',
  );
});

describe('URL app-install statistics', () => {
  it('count installs, clicks and conversion, daily in UTC', async () => {
    const res = await stats(`/urls/${url.id}/app-install-stats`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      period: '2025-06-01 ~ 2025-06-03',
      appName: 'Acme iOS / Acme Android',
      linkAlias: url.shortCode,
      platform: 'All',
      totalInstalls: 3,
      iosInstalls: 2,
      androidInstalls: 1,
      totalClicks: 8,
      conversionRate: 37.5,
      meta: { actualStartDate: '2025-06-01', actualEndDate: '2025-06-03', timeZone: 'UTC' },
    });
    expect(body.dailyInstalls).toEqual([
      { date: '2025-06-01', installs: 2, iosInstalls: 2, androidInstalls: 0 },
      { date: '2025-06-02', installs: 1, iosInstalls: 0, androidInstalls: 1 },
      { date: '2025-06-03', installs: 0, iosInstalls: 0, androidInstalls: 0 },
    ]);
    expect(body.platformStats).toEqual([
      { platform: 'iOS', installs: 2, percentage: 66.7 },
      { platform: 'Android', installs: 1, percentage: 33.3 },
    ]);
    expect(body.countryStats).toEqual([{ country: 'KR', installs: 3, percentage: 100 }]);
    expect(body.installsByMatchType).toEqual([
      { matchType: 'referrer', installs: 2, percentage: 66.7 },
      { matchType: 'fingerprint', installs: 1, percentage: 33.3 },
    ]);
    expect(body.recentInstalls.map((r: { installedAt: string }) => r.installedAt)).toEqual([
      '2025-06-02T03:00:00.000Z',
      '2025-06-01T15:30:00.000Z',
      '2025-06-01T14:30:00.000Z',
    ]);
    expect(body.recentInstalls[0]).toEqual({
      installedAt: '2025-06-02T03:00:00.000Z',
      platform: 'Android',
      country: 'KR',
      matchType: 'referrer',
      confidence: 80,
      linkType: 'url',
      linkId: url.id,
    });
  });

  it("appName: the linked app's name, not the short code; the short code only when the URL opens no app", async () => {
    const both = (await stats(`/urls/${url.id}/app-install-stats`)).json();
    expect(both).toMatchObject({ appName: 'Acme iOS / Acme Android', linkAlias: url.shortCode });
    const iosOnly = await svc.createLink(org, { url: 'https://example.com/p/2', iosAppId: iosApp.id });
    expect((await stats(`/urls/${iosOnly.id}/app-install-stats`)).json()).toMatchObject({
      appName: 'Acme iOS',
      linkAlias: iosOnly.shortCode,
    });
    const plain = await svc.createLink(org, { url: 'https://example.com/p/3' });
    expect((await stats(`/urls/${plain.id}/app-install-stats`)).json()).toMatchObject({
      appName: plain.shortCode,
      linkAlias: plain.shortCode,
    });
  });

  it('move installs across midnight in Asia/Seoul', async () => {
    const body = (await stats(`/urls/${url.id}/app-install-stats`, `${PERIOD}&timeZone=Asia/Seoul`)).json();
    expect(body.dailyInstalls.map((d: { installs: number }) => d.installs)).toEqual([1, 2, 0]);
    expect(body.dailyInstalls[1]).toEqual({ date: '2025-06-02', installs: 2, iosInstalls: 1, androidInstalls: 1 });
  });

  it('filter by platform, installs and clicks alike', async () => {
    const ios = (await stats(`/urls/${url.id}/app-install-stats`, `${PERIOD}&platform=iOS`)).json();
    expect(ios).toMatchObject({
      appName: 'Acme iOS',
      platform: 'iOS',
      totalInstalls: 2,
      iosInstalls: 2,
      androidInstalls: 0,
      totalClicks: 4,
      conversionRate: 50,
    });
    const android = (await stats(`/urls/${url.id}/app-install-stats`, `${PERIOD}&platform=android`)).json();
    expect(android).toMatchObject({
      appName: 'Acme Android',
      platform: 'Android',
      totalInstalls: 1,
      totalClicks: 2,
      conversionRate: 50,
    });
  });

  it('funnelStats.stages: conversionRate is of stage 1, and both rates come under clear names', async () => {
    const { funnelStats } = (await stats(`/urls/${url.id}/app-install-stats`)).json();
    const stage = (
      stageName: string,
      stageOrder: number,
      sessionsReached: number,
      fromFirst: number,
      fromPrevious: number,
    ) => ({
      stageName,
      stageOrder,
      sessionsReached,
      conversionRate: fromFirst,
      conversionRateFromFirstStage: fromFirst,
      conversionRateFromPreviousStage: fromPrevious,
    });
    expect(funnelStats).toEqual({
      totalSessions: 4,
      completedSessions: 1,
      overallConversionRate: 25,
      stages: [
        stage('딥링크 클릭', 1, 4, 100, 100),
        stage('스토어 방문', 2, 3, 75, 75),
        stage('앱 설치', 3, 2, 50, 66.7),
        stage('앱 실행', 4, 1, 25, 50),
      ],
    });
  });

  it('report resolution quality and re-engagement', async () => {
    const body = (await stats(`/urls/${url.id}/app-install-stats`)).json();
    expect(body.qualityStats).toEqual({
      totalAttempts: 7,
      successfulResolutions: 4,
      successRate: 57.1,
      fingerprintMatchRate: 66.7,
      failureReasons: [
        { name: 'below_threshold', count: 1, percentage: 33.3 },
        { name: 'expired_token', count: 1, percentage: 33.3 },
        { name: 'unknown_token', count: 1, percentage: 33.3 },
      ],
    });
    expect(body.reengagementStats).toEqual({
      totalReengagements: 3,
      successfulReengagements: 2,
      successRate: 66.7,
      uniqueReengagedUsers: 1,
      platformDistribution: { ios: 2, android: 1, other: 0 },
    });
    expect(body.dailyReengagements).toEqual([
      { date: '2025-06-01', reengagements: 0, successful: 0 },
      { date: '2025-06-02', reengagements: 3, successful: 2 },
      { date: '2025-06-03', reengagements: 0, successful: 0 },
    ]);
  });
});

describe('campaign and app install statistics', () => {
  it("count the campaign's own installs and clicks", async () => {
    const body = (await stats(`/campaigns/${campaign.id}/app-install-stats`, `${PERIOD}&timeZone=Asia/Seoul`)).json();
    expect(body).toMatchObject({
      appName: 'Acme Android',
      linkAlias: campaign.alias,
      totalInstalls: 1,
      androidInstalls: 1,
      totalClicks: 3,
      conversionRate: 33.3,
    });
    expect(body.funnelStats.totalSessions).toBe(0);
    expect(body.funnelStats.stages.map((s: { sessionsReached: number }) => s.sessionsReached)).toEqual([0, 0, 0, 0]);
  });

  it("count an app's installs, organic included, against clicks from its platform on its links", async () => {
    const body = (await stats(`/mobile-apps/${iosApp.id}/install-stats`)).json();
    expect(body).toMatchObject({
      appName: 'Acme iOS',
      linkAlias: null,
      totalInstalls: 3,
      iosInstalls: 3,
      androidInstalls: 0,
      totalClicks: 4,
      conversionRate: 75,
    });
    expect(body.recentInstalls[0]).toMatchObject({ matchType: 'organic', linkType: null, linkId: null });
    // The attempt that found no candidate belongs to the app, not to any link.
    expect(body.qualityStats.failureReasons).toContainEqual({ name: 'no_candidate', count: 1, percentage: 33.3 });
    expect(body.qualityStats.totalAttempts).toBe(7);

    const android = (await stats(`/mobile-apps/${androidApp.id}/install-stats`)).json();
    // Its links: the URL (2 Android clicks) and the campaign (3).
    expect(android).toMatchObject({ totalInstalls: 2, androidInstalls: 2, totalClicks: 5, conversionRate: 40 });
  });
});

describe('install statistics requests', () => {
  it('refuse a bad platform, bad dates and an unknown zone with 400', async () => {
    expectError(await stats(`/urls/${url.id}/app-install-stats`, 'platform=windows'), 400);
    expectError(await stats(`/urls/${url.id}/app-install-stats`, 'startDate=2025-06-05&endDate=2025-06-01'), 400);
    expectError(await stats(`/campaigns/${campaign.id}/app-install-stats`, 'timeZone=Mars/Olympus'), 400);
    expectError(await stats(`/mobile-apps/${iosApp.id}/install-stats`, 'startDate=2025-13-01'), 400);
  });

  it("answer 404 for another organization's ids and show it none of these installs", async () => {
    const rival = await svc.createOrganization('Rival', 'ENTERPRISE');
    for (const path of [
      `/urls/${url.id}/app-install-stats`,
      `/campaigns/${campaign.id}/app-install-stats`,
      `/mobile-apps/${iosApp.id}/install-stats`,
    ]) {
      expectError(await svc.service('GET', `${path}?${PERIOD}`, rival.apiKey), 404);
    }
    const app = await svc.createApp(rival, { platform: 'IOS', appName: 'Rival', bundleId: 'com.rival' });
    const body = (await svc.service('GET', `/mobile-apps/${app.id}/install-stats?${PERIOD}`, rival.apiKey)).json();
    expect(body).toMatchObject({ totalInstalls: 0, totalClicks: 0, qualityStats: { totalAttempts: 0 } });
  });
});
