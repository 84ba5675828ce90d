// User-journey statistics: known sessions, events, transitions and goals in through the real
// pipeline, exact figures out in UTC and in Asia/Seoul across a day boundary; the same events
// delivered twice and out of order change nothing; authentication, add-on and period rules.
import { beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../src/ingest/envelope.js';
import { uuidv7 } from '../src/shared/ids.js';
import { expectError } from './support/error-body.js';
import { journeyClient, journeyOrg, type JourneyApp } from './support/journey.js';
import { eventually, serviceForFile } from './support/service.js';
import { looseEvent } from './support/loose-event.js';

let acme: JourneyApp;
let rival: JourneyApp;
let call: ReturnType<typeof journeyClient>;

/** A session id as the service issues it: a UUIDv7 carrying the session's start. */
function sessionIdAt(startedAt: string, n: number): string {
  const ms = Date.parse(startedAt).toString(16).padStart(12, '0');
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7000-8000-${String(n).padStart(12, '0')}`;
}

const S1 = sessionIdAt('2025-03-08T23:30:00Z', 1);
const S2 = sessionIdAt('2025-03-09T16:00:00Z', 2);
const S3 = sessionIdAt('2025-03-09T10:00:00Z', 3);
const S4 = sessionIdAt('2025-03-09T12:00:00Z', 4);

function envelope(
  type: string,
  at: string,
  data: Record<string, unknown>,
  organizationId = acme.org.id,
): EventEnvelope {
  return { eventId: uuidv7(), type, occurredAt: Date.parse(at), organizationId, data: { appId: acme.appId, ...data } };
}

/**
 * S1: WEB, kakao, u1, 2025-03-08 23:30Z (Seoul 03-09 08:30): two events, CLICKED → CONTENT_VIEWED →
 *     GOAL_COMPLETED 39000 KRW, WEB → IOS.
 * S2: IOS, naver, anonymous, 2025-03-09 16:00Z (Seoul 03-10 01:00): one event, CLICKED → DEEP_LINK_RESOLVED.
 * S3: WEB, no UTM, u2, 2025-03-09 10:00Z (Seoul 19:00): one event, GOAL_COMPLETED 12.5 USD, IOS → WEB.
 * S4: another organization's session on the same day.
 */
function journey(): { starts: EventEnvelope[]; rest: EventEnvelope[] } {
  const starts = [
    envelope('session_started', '2025-03-08T23:30:00Z', {
      sessionId: S1,
      platform: 'WEB',
      utmSource: 'kakao',
      externalUserId: 'u1',
    }),
    envelope('session_started', '2025-03-09T16:00:00Z', { sessionId: S2, platform: 'IOS', utmSource: 'naver' }),
    envelope('session_started', '2025-03-09T10:00:00Z', { sessionId: S3, platform: 'WEB', externalUserId: 'u2' }),
    envelope(
      'session_started',
      '2025-03-09T12:00:00Z',
      { sessionId: S4, platform: 'ANDROID', utmSource: 'kakao' },
      rival.org.id,
    ),
  ];
  const rest = [
    envelope('session_event', '2025-03-08T23:31:00Z', {
      sessionId: S1,
      platform: 'WEB',
      eventType: 'page_view',
      properties: {},
      externalUserId: 'u1',
    }),
    envelope('session_event', '2025-03-08T23:32:00Z', {
      sessionId: S1,
      platform: 'WEB',
      eventType: 'click',
      properties: {},
      externalUserId: 'u1',
    }),
    envelope('journey_funnel', '2025-03-08T23:30:00Z', { sessionId: S1, platform: 'WEB', stage: 'CLICKED' }),
    envelope('journey_funnel', '2025-03-08T23:33:00Z', { sessionId: S1, platform: 'WEB', stage: 'CONTENT_VIEWED' }),
    envelope('journey_funnel', '2025-03-08T23:40:00Z', {
      sessionId: S1,
      platform: 'WEB',
      stage: 'GOAL_COMPLETED',
      goalType: 'purchase_KRW',
      goalValue: 39000,
      currency: 'KRW',
      transactionId: 'o-1',
    }),
    envelope('session_transition', '2025-03-08T23:35:00Z', {
      sessionId: S1,
      fromPlatform: 'WEB',
      toPlatform: 'IOS',
      properties: {},
    }),
    envelope('session_event', '2025-03-09T16:01:00Z', {
      sessionId: S2,
      platform: 'IOS',
      eventType: 'page_view',
      properties: {},
    }),
    envelope('journey_funnel', '2025-03-09T16:00:00Z', { sessionId: S2, platform: 'IOS', stage: 'CLICKED' }),
    envelope('journey_funnel', '2025-03-09T16:01:00Z', { sessionId: S2, platform: 'IOS', stage: 'DEEP_LINK_RESOLVED' }),
    envelope('session_event', '2025-03-09T10:00:30Z', {
      sessionId: S3,
      platform: 'WEB',
      eventType: 'page_view',
      properties: {},
      externalUserId: 'u2',
    }),
    envelope('journey_funnel', '2025-03-09T10:05:00Z', {
      sessionId: S3,
      platform: 'WEB',
      stage: 'GOAL_COMPLETED',
      goalType: 'purchase_USD',
      goalValue: 12.5,
      currency: 'USD',
      externalUserId: 'u2',
    }),
    envelope('session_transition', '2025-03-09T10:06:00Z', {
      sessionId: S3,
      fromPlatform: 'IOS',
      toPlatform: 'WEB',
      properties: {},
    }),
    envelope(
      'session_event',
      '2025-03-09T12:01:00Z',
      { sessionId: S4, platform: 'ANDROID', eventType: 'page_view', properties: {} },
      rival.org.id,
    ),
  ];
  return { starts, rest };
}

async function publish(events: EventEnvelope[]): Promise<void> {
  for (const e of events) svc.container.events.record(looseEvent(e));
  expect(await svc.container.events.flush()).toBe(true);
}

async function settle(expectedRows: number): Promise<void> {
  await eventually(
    async () => {
      const [row] = await svc.clickhouse<{ n: string }>(
        `SELECT toString((SELECT count() FROM journey_session_starts) + (SELECT count() FROM journey_events)
        + (SELECT count() FROM journey_funnel) + (SELECT count() FROM journey_transitions)) AS n`,
      );
      return Number(row?.n) >= expectedRows;
    },
    15_000,
    'journey rows written',
  );
  expect(await svc.container.bus.drain(10_000)).toBe(true);
}

const stats = (path: string, query: string, client = call) =>
  client('GET', `/stats/${path}?${query}`, undefined, { mobile: true });
const UTC = 'startDate=2025-03-08&endDate=2025-03-10';
const SEOUL = 'startDate=2025-03-08&endDate=2025-03-10&timeZone=Asia/Seoul';

const svc = serviceForFile();

beforeAll(async () => {
  // ENTERPRISE keeps 1825 days (the 2025 dates are inside) and includes the add-on.
  acme = await journeyOrg(svc, 'Acme', 'ENTERPRISE', false);
  rival = await journeyOrg(svc, 'Rival', 'ENTERPRISE', false);
  call = journeyClient(svc, acme);
  const { starts, rest } = journey();
  // Out of order: the sessions' events arrive before their starts.
  await publish(rest);
  await publish(starts);
  await settle(starts.length + rest.length);
  // Redelivery: the very same events (same ids) in new batches, and once more in reverse.
  await publish([...starts, ...rest]);
  await publish([...rest].reverse());
  await settle(2 * (starts.length + rest.length));
});

describe('journey statistics in two time zones', () => {
  it('daily: sessions by their start, events, transitions and goals by their own time, in UTC', async () => {
    const res = await stats('daily', UTC);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      daily: [
        { date: '2025-03-08', sessions: 1, uniqueUsers: 1, events: 2, transitions: 1, goalCompletions: 1 },
        { date: '2025-03-09', sessions: 2, uniqueUsers: 1, events: 2, transitions: 1, goalCompletions: 1 },
        { date: '2025-03-10', sessions: 0, uniqueUsers: 0, events: 0, transitions: 0, goalCompletions: 0 },
      ],
      meta: {
        dataRetentionDays: 1825,
        actualStartDate: '2025-03-08',
        actualEndDate: '2025-03-10',
        requestedStartDate: '2025-03-08',
        requestedEndDate: '2025-03-10',
        empty: false,
        emptyReason: null,
        timeZone: 'UTC',
      },
    });
  });

  it('daily: the same data moves across the day boundary in Asia/Seoul', async () => {
    const body = (await stats('daily', SEOUL)).json();
    expect(body.daily).toEqual([
      { date: '2025-03-08', sessions: 0, uniqueUsers: 0, events: 0, transitions: 0, goalCompletions: 0 },
      { date: '2025-03-09', sessions: 2, uniqueUsers: 2, events: 3, transitions: 2, goalCompletions: 2 },
      { date: '2025-03-10', sessions: 1, uniqueUsers: 0, events: 1, transitions: 0, goalCompletions: 0 },
    ]);
    expect(body.meta.timeZone).toBe('Asia/Seoul');
    // One Seoul day: S2 (01:00 on the 10th) falls outside.
    const oneDay = (await stats('summary', 'startDate=2025-03-09&endDate=2025-03-09&timeZone=Asia/Seoul')).json();
    expect(oneDay).toMatchObject({
      totalSessions: 2,
      totalEvents: 3,
      totalTransitions: 2,
      goalCompletions: 2,
      convertedSessions: 2,
      conversionRate: 100,
    });
    const oneUtcDay = (await stats('summary', 'startDate=2025-03-09&endDate=2025-03-09')).json();
    expect(oneUtcDay).toMatchObject({
      totalSessions: 2,
      totalEvents: 2,
      totalTransitions: 1,
      goalCompletions: 1,
      convertedSessions: 1,
      conversionRate: 50,
    });
  });

  it('summary: exact totals, conversion and revenue per currency; another organization never counts', async () => {
    const body = (await stats('summary', UTC)).json();
    expect(body).toEqual({
      totalSessions: 3,
      uniqueUsers: 2,
      identifiedSessions: 2,
      totalEvents: 4,
      totalTransitions: 2,
      goalCompletions: 2,
      convertedSessions: 2,
      conversionRate: 66.7,
      revenue: [
        { currency: 'KRW', totalRevenue: 39000, goals: 1 },
        { currency: 'USD', totalRevenue: 12.5, goals: 1 },
      ],
      meta: {
        dataRetentionDays: 1825,
        actualStartDate: '2025-03-08',
        actualEndDate: '2025-03-10',
        requestedStartDate: '2025-03-08',
        requestedEndDate: '2025-03-10',
        empty: false,
        emptyReason: null,
        timeZone: 'UTC',
      },
    });
    const theirs = (await stats('summary', UTC, journeyClient(svc, rival))).json();
    expect(theirs).toMatchObject({ totalSessions: 1, totalEvents: 1, totalTransitions: 0, goalCompletions: 0 });
  });

  it('sessions: summary, by platform, by UTM source', async () => {
    expect((await stats('sessions/summary', UTC)).json()).toMatchObject({
      totalSessions: 3,
      uniqueUsers: 2,
      identifiedSessions: 2,
      averageEventsPerSession: 1.33,
      averageDurationSeconds: 340,
      bounceRate: 33.3,
      sessionsWithTransition: 2,
      crossPlatformRate: 66.7,
      convertedSessions: 2,
      conversionRate: 66.7,
    });
    expect((await stats('sessions/by-platform', UTC)).json().platforms).toEqual([
      { platform: 'WEB', sessions: 2, percentage: 66.7, uniqueUsers: 2, convertedSessions: 2, conversionRate: 100 },
      { platform: 'IOS', sessions: 1, percentage: 33.3, uniqueUsers: 0, convertedSessions: 0, conversionRate: 0 },
      { platform: 'ANDROID', sessions: 0, percentage: 0, uniqueUsers: 0, convertedSessions: 0, conversionRate: 0 },
    ]);
    expect((await stats('sessions/by-utm-source', UTC)).json().sources).toEqual([
      { utmSource: '(none)', sessions: 1, percentage: 33.3, convertedSessions: 1, conversionRate: 100 },
      { utmSource: 'kakao', sessions: 1, percentage: 33.3, convertedSessions: 1, conversionRate: 100 },
      { utmSource: 'naver', sessions: 1, percentage: 33.3, convertedSessions: 0, conversionRate: 0 },
    ]);
  });

  it('sessions/list: newest first, paged, filtered', async () => {
    const body = (await stats('sessions/list', `${UTC}&size=2`)).json();
    expect(body).toMatchObject({ page: 0, size: 2, totalElements: 3, totalPages: 2, first: true, last: false });
    expect(body.content.map((s: { sessionId: string }) => s.sessionId)).toEqual([S2, S3]);
    expect(body.content[1]).toEqual({
      sessionId: S3,
      platform: 'WEB',
      startedAt: '2025-03-09T10:00:00.000Z',
      lastActivityAt: '2025-03-09T10:06:00.000Z',
      durationSeconds: 360,
      externalUserId: 'u2',
      utmSource: null,
      utmMedium: null,
      utmCampaign: null,
      events: 1,
      transitions: 1,
      furthestStage: 'GOAL_COMPLETED',
      goalCompletions: 1,
    });
    const last = (await stats('sessions/list', `${UTC}&size=2&page=1`)).json();
    expect(
      last.content.map((s: { sessionId: string; furthestStage: string }) => [s.sessionId, s.furthestStage]),
    ).toEqual([[S1, 'GOAL_COMPLETED']]);
    expect(
      (await stats('sessions/list', `${UTC}&platform=IOS`))
        .json()
        .content.map((s: { furthestStage: string }) => s.furthestStage),
    ).toEqual(['DEEP_LINK_RESOLVED']);
    expect((await stats('sessions/list', `${UTC}&utmSource=kakao`)).json().totalElements).toBe(1);
    expect((await stats('sessions/list', `${UTC}&externalUserId=u1`)).json().content[0].sessionId).toBe(S1);
  });

  it('transitions: summary per path and the daily trend', async () => {
    expect((await stats('transitions/summary', UTC)).json()).toMatchObject({
      totalTransitions: 2,
      sessionsWithTransition: 2,
      webToApp: 1,
      appToWeb: 1,
      paths: [
        { fromPlatform: 'IOS', toPlatform: 'WEB', count: 1, percentage: 50 },
        { fromPlatform: 'WEB', toPlatform: 'IOS', count: 1, percentage: 50 },
      ],
    });
    expect((await stats('transitions/trend', SEOUL)).json().daily).toEqual([
      { date: '2025-03-08', total: 0, paths: [] },
      {
        date: '2025-03-09',
        total: 2,
        paths: [
          { fromPlatform: 'IOS', toPlatform: 'WEB', count: 1 },
          { fromPlatform: 'WEB', toPlatform: 'IOS', count: 1 },
        ],
      },
      { date: '2025-03-10', total: 0, paths: [] },
    ]);
  });

  it('dashboard: the funnel counts a session once per stage, later stages implying earlier ones; conversionRate is of the previous stage, and both rates come under clear names', async () => {
    const body = (await stats('dashboard', UTC)).json();
    const stage = (
      stageName: string,
      stageOrder: number,
      sessionsReached: number,
      fromPrevious: number,
      percentageOfSessions: number,
      fromFirst: number,
    ) => ({
      stageName,
      stageOrder,
      sessionsReached,
      conversionRate: fromPrevious,
      percentageOfSessions,
      conversionRateFromFirstStage: fromFirst,
      conversionRateFromPreviousStage: fromPrevious,
    });
    expect(body.funnel).toEqual({
      totalSessions: 3,
      completedSessions: 2,
      overallConversionRate: 66.7,
      stages: [
        stage('CLICKED', 1, 3, 100, 100, 100),
        stage('DEEP_LINK_RESOLVED', 2, 3, 100, 100, 100),
        stage('CONTENT_VIEWED', 3, 2, 66.7, 66.7, 66.7),
        stage('ACTION_TAKEN', 4, 2, 100, 66.7, 66.7),
        stage('GOAL_COMPLETED', 5, 2, 100, 66.7, 66.7),
      ],
    });
    expect(body.summary).toMatchObject({ totalSessions: 3, totalEvents: 4, goalCompletions: 2 });
    expect(body.daily).toHaveLength(3);
    expect(body.platforms[0]).toMatchObject({ platform: 'WEB', sessions: 2 });
    expect(body.topUtmSources).toHaveLength(3);
    expect(body.transitions).toMatchObject({ totalTransitions: 2 });
    expect(body.topEventTypes).toEqual([
      { eventType: 'page_view', count: 3 },
      { eventType: 'click', count: 1 },
    ]);
    expect(body.topGoalTypes).toEqual([
      { goalType: 'purchase_KRW', count: 1, value: 39000 },
      { goalType: 'purchase_USD', count: 1, value: 12.5 },
    ]);
  });

  it('keeps one row per event in the raw tables once merged, however often it was delivered', async () => {
    await svc.clickhouse('OPTIMIZE TABLE journey_events FINAL');
    const [row] = await svc.clickhouse<{ n: string; u: string }>(
      'SELECT toString(count()) AS n, toString(uniqExact(event_id)) AS u FROM journey_events WHERE organization_id = {o:UInt64}',
      { o: acme.org.id },
    );
    expect(row).toEqual({ n: '4', u: '4' });
  });
});

describe('what statistics require', () => {
  it('a proven caller: a browser (app id only) is 401; a Service API key works', async () => {
    expectError(await call('GET', `/stats/summary?${UTC}`), 401, { code: 'APP_CREDENTIALS_MISSING' });
    const byKey = await svc.inject({
      method: 'GET',
      url: `/api/v1/cross-platform/stats/summary?${UTC}`,
      headers: { 'x-api-key': acme.org.apiKey },
    });
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json().totalSessions).toBe(3);
    expectError(
      await svc.inject({
        method: 'GET',
        url: `/api/v1/cross-platform/stats/summary?${UTC}`,
        headers: { 'x-api-key': 'sp_live_nope' },
      }),
      401,
      { code: 'API_KEY_INVALID' },
    );
  });

  it('the add-on: 403 ADD_ON_REQUIRED without it, by app key or API key', async () => {
    const plain = await journeyOrg(svc, 'Plain', 'PRO', false);
    expectError(await stats('summary', '', journeyClient(svc, plain)), 403, { code: 'ADD_ON_REQUIRED' });
    expectError(
      await svc.inject({
        method: 'GET',
        url: '/api/v1/cross-platform/stats/daily',
        headers: { 'x-api-key': plain.org.apiKey },
      }),
      403,
      { code: 'ADD_ON_REQUIRED' },
    );
  });

  it("valid periods: 400 naming the parameter, and clamping to the plan's retention", async () => {
    expectError(await stats('daily', 'timeZone=Mars/Olympus'), 400, { field: 'timeZone' });
    expectError(await stats('daily', 'startDate=2025-13-01'), 400, { field: 'startDate' });
    expectError(await stats('daily', 'startDate=2025-03-10&endDate=2025-03-08'), 400, { field: 'startDate' });
    expectError(await stats('sessions/list', 'size=0'), 400, { field: 'size' });
    expectError(await stats('sessions/by-utm-source', 'limit=1000'), 400, { field: 'limit' });
    const pro = await journeyOrg(svc, 'Pro', 'PRO', true);
    const body = (await stats('daily', 'startDate=2020-01-01', journeyClient(svc, pro))).json();
    expect(body.meta.dataRetentionDays).toBe(365);
    expect(body.daily).toHaveLength(365);
  });

  it('counts what the API itself records, today, with the default period', async () => {
    const live = await journeyOrg(svc, 'Live', 'BUSINESS', true);
    const liveCall = journeyClient(svc, live);
    const s = (
      await liveCall('POST', '/session/create', { platform: 'ANDROID', utmSource: 'push' }, { mobile: true })
    ).json();
    await liveCall('POST', '/session/event', {
      sessionId: s.sessionId,
      eventType: 'purchase',
      properties: { sku: 'A1' },
    });
    await liveCall('POST', '/session/funnel/track', {
      sessionId: s.sessionId,
      stage: 'GOAL_COMPLETED',
      goalType: 'purchase_KRW',
      goalValue: 5000,
      currency: 'KRW',
      transactionId: 't-1',
    });
    await liveCall('POST', '/session/funnel/track', {
      sessionId: s.sessionId,
      stage: 'GOAL_COMPLETED',
      goalType: 'purchase_KRW',
      goalValue: 5000,
      currency: 'KRW',
      transactionId: 't-1',
    });
    const body = await eventually(
      async () => {
        const b = (await stats('summary', '', liveCall)).json();
        return (
          b.totalSessions === 1 && b.totalEvents === 1 && b.goalCompletions === 1 && b.convertedSessions === 1 && b
        );
      },
      15_000,
      'live figures',
    );
    expect(body).toMatchObject({
      totalSessions: 1,
      totalEvents: 1,
      goalCompletions: 1,
      convertedSessions: 1,
      revenue: [{ currency: 'KRW', totalRevenue: 5000, goals: 1 }],
    });
    expect((await stats('sessions/by-platform', '', liveCall)).json().platforms[2]).toMatchObject({
      platform: 'ANDROID',
      sessions: 1,
    });
  });
});
