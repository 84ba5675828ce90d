// Per-app statistics of deferred deep links (GET mobile-apps/{id}/deferred-match-stats): first
// launches recorded through the real pipeline, exact figures out in UTC and in Asia/Seoul across
// the day boundary; re-engagement opens, other apps and other organizations left out; 404 and 400.
import { beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../src/shared/ids.js';
import { expectError } from './support/error-body.js';
import { looseEvent } from './support/loose-event.js';
import { serviceForFile } from './support/service.js';

let org: { id: number; apiKey: string };
let rival: { id: number; apiKey: string };
let app: { id: number };
let otherApp: { id: number };

const PERIOD = 'startDate=2025-06-01&endDate=2025-06-03';

const attempt = (at: string, appId: number, fields: Record<string, unknown>, organizationId = org.id) =>
  looseEvent({
    eventId: uuidv7(),
    type: 'deeplink_resolution',
    occurredAt: Date.parse(at),
    organizationId,
    data: {
      appId,
      platform: 'IOS',
      method: 'fingerprint',
      matched: false,
      matchType: null,
      confidence: 0,
      failureReason: null,
      linkType: null,
      linkId: null,
      reengagement: false,
      userKey: '',
      ...fields,
    },
  });

const matched = (matchType: string, confidence: number) => ({
  matched: true,
  matchType,
  confidence,
  linkType: 'url',
  linkId: 1,
});
const miss = (failureReason: string, confidence = 0) => ({ failureReason, confidence });

const svc = serviceForFile();

beforeAll(async () => {
  org = await svc.createOrganization('Deferred', 'ENTERPRISE');
  rival = await svc.createOrganization('Rival', 'ENTERPRISE');
  const create = (owner: { apiKey: string }, appName: string) =>
    svc.createApp(owner, {
      platform: 'IOS',
      appName,
      bundleId: `com.acme.${appName.toLowerCase()}`,
      scheme: 'acme://',
    });
  app = await create(org, 'Shop');
  otherApp = await create(org, 'Other');
  const events = [
    // 2025-06-01 in UTC; the last three are 2025-06-02 in Seoul (+9).
    attempt('2025-06-01T14:30:00Z', app.id, matched('fingerprint', 86)),
    attempt('2025-06-01T15:30:00Z', app.id, { ...matched('referrer', 100), method: 'referrer' }),
    attempt('2025-06-01T15:45:00Z', app.id, { ...matched('clipboard', 100), method: 'clipboard' }),
    attempt('2025-06-01T16:00:00Z', app.id, miss('below_threshold', 44)),
    attempt('2025-06-02T10:00:00Z', app.id, miss('no_candidate')),
    attempt('2025-06-02T11:00:00Z', app.id, miss('already_consumed', 95)),
    attempt('2025-06-03T01:00:00Z', app.id, { ...miss('expired'), method: 'referrer' }),
    // A click that matched but whose link was deleted since.
    attempt('2025-06-03T02:00:00Z', app.id, miss('link_deleted', 90)),
    // Not first launches of this app in this organization, or outside the period.
    attempt('2025-06-02T12:00:00Z', app.id, { ...matched('token', 100), method: 'token', reengagement: true }),
    attempt('2025-06-02T12:00:00Z', otherApp.id, matched('fingerprint', 77)),
    attempt('2025-06-02T12:00:00Z', app.id, matched('fingerprint', 77), rival.id),
    attempt('2025-05-31T12:00:00Z', app.id, miss('no_candidate')),
  ];
  for (const e of events) svc.container.events.record(e);
  expect(await svc.container.events.flush(10_000)).toBe(true);
  expect(await svc.container.bus.drain(15_000)).toBe(true);
});

const stats = (query: string, appId = app.id, apiKey = org.apiKey) =>
  svc.service('GET', `/mobile-apps/${appId}/deferred-match-stats?${query}`, apiKey);

const day = (
  date: string,
  firstLaunches: number,
  matchedCount: number,
  byType: [number, number, number],
  misses: [number, number, number, number, number],
) => ({
  date,
  firstLaunches,
  matched: matchedCount,
  matchesByType: { referrer: byType[0], clipboard: byType[1], fingerprint: byType[2] },
  missesByReason: {
    no_candidate: misses[0],
    below_threshold: misses[1],
    already_consumed: misses[2],
    expired: misses[3],
    other: misses[4],
  },
});

describe('GET mobile-apps/{id}/deferred-match-stats', () => {
  it("counts the app's first launches: matches by type and confidence, misses by the reason the app heard, per UTC day", async () => {
    const res = await stats(PERIOD);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      period: '2025-06-01 ~ 2025-06-03',
      appName: 'Shop',
      firstLaunches: 8,
      matched: 3,
      matchRate: 37.5,
      matchesByType: [
        { matchType: 'referrer', count: 1, percentage: 33.3 },
        { matchType: 'clipboard', count: 1, percentage: 33.3 },
        { matchType: 'fingerprint', count: 1, percentage: 33.3 },
      ],
      missesByReason: [
        { reason: 'no_candidate', count: 1, percentage: 20 },
        { reason: 'below_threshold', count: 1, percentage: 20 },
        { reason: 'already_consumed', count: 1, percentage: 20 },
        { reason: 'expired', count: 1, percentage: 20 },
        { reason: 'other', count: 1, percentage: 20 },
      ],
      meta: { actualStartDate: '2025-06-01', actualEndDate: '2025-06-03', timeZone: 'UTC' },
    });
    expect(body.confidenceDistribution).toHaveLength(10);
    expect(body.confidenceDistribution.filter((d: { count: number }) => d.count > 0)).toEqual([
      { range: '80-89', count: 1, percentage: 33.3 },
      { range: '90-100', count: 2, percentage: 66.7 },
    ]);
    expect(body.daily).toEqual([
      day('2025-06-01', 4, 3, [1, 1, 1], [0, 1, 0, 0, 0]),
      day('2025-06-02', 2, 0, [0, 0, 0], [1, 0, 1, 0, 0]),
      day('2025-06-03', 2, 0, [0, 0, 0], [0, 0, 0, 1, 1]),
    ]);
  });

  it("puts each first launch on its local date in the caller's time zone", async () => {
    const body = (await stats(`${PERIOD}&timeZone=Asia/Seoul`)).json();
    expect(body.meta.timeZone).toBe('Asia/Seoul');
    expect(body.firstLaunches).toBe(8);
    expect(body.daily).toEqual([
      day('2025-06-01', 1, 1, [0, 0, 1], [0, 0, 0, 0, 0]),
      day('2025-06-02', 5, 2, [1, 1, 0], [1, 1, 1, 0, 0]),
      day('2025-06-03', 2, 0, [0, 0, 0], [0, 0, 0, 1, 1]),
    ]);
  });

  it('answers zeros for every day of a period without launches', async () => {
    const body = (await stats('startDate=2024-01-01&endDate=2024-01-02')).json();
    expect(body).toMatchObject({ firstLaunches: 0, matched: 0, matchRate: 0 });
    expect(body.daily.map((d: { date: string; firstLaunches: number }) => [d.date, d.firstLaunches])).toEqual([
      ['2024-01-01', 0],
      ['2024-01-02', 0],
    ]);
  });

  it("is 404 for another organization's app and 400 for a zone that is not one", async () => {
    expectError(await stats(PERIOD, app.id, rival.apiKey), 404, { code: 'MOBILE_APP_NOT_FOUND' });
    expectError(await stats(`${PERIOD}&timeZone=Mars/Olympus`), 400);
  });
});
