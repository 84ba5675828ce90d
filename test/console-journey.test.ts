// The user-journey dashboard through the console API: the journey API's own statistics and a
// session's events, for every member of an organization with the add-on; without it the answer
// says which add-on (403 ADD_ON_REQUIRED); another organization's member learns nothing (404).
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journeyClient, journeyOrg, type JourneyApp } from './support/journey.js';
import { eventually, isolate, startService, type Isolation, type TestService } from './support/service.js';

describe('console user journey', () => {
  let isolation: Isolation;
  let svc: TestService;
  let app: JourneyApp;
  let without: JourneyApp;
  let sessionId: string;
  const cookies: Record<string, string> = {};

  const cookieOf = (res: LightMyRequestResponse) => {
    const all = res.headers['set-cookie'];
    const list = Array.isArray(all) ? all : all ? [String(all)] : [];
    return list.find((c) => c.startsWith('sp_session='))!.split(';')[0]!;
  };
  const member = async (orgId: number, email: string, role: string) => {
    await svc.admin('POST', `/organizations/${orgId}/members`, { email, role });
    const link = new URL((await svc.admin('POST', '/login-links', { email })).json().url);
    cookies[email] = cookieOf(await svc.inject({ method: 'GET', url: `${link.pathname}${link.search}` }));
  };
  const get = (url: string, email: string) =>
    svc.inject({ method: 'GET', url: `/console/api${url}`, headers: { cookie: cookies[email]! } });

  beforeAll(async () => {
    isolation = await isolate();
    svc = await startService(isolation);
    app = await journeyOrg(svc, 'Journeys', 'PRO', true);
    without = await journeyOrg(svc, 'No Journeys', 'PRO', false);
    await member(app.org.id, 'analyst@journey.example', 'analyst');
    await member(without.org.id, 'owner@nojourney.example', 'owner');
    const call = journeyClient(svc, app);
    const created = await call('POST', '/session/create', { platform: 'WEB', utmSource: 'newsletter' });
    expect(created.statusCode, created.body).toBe(201);
    sessionId = created.json().sessionId;
    await call('POST', '/session/event', { sessionId, eventType: 'page_view', properties: { path: '/items/42' } });
    await call('POST', '/session/funnel/track', { sessionId, stage: 'CLICKED' });
    await svc.container.events.flush();
    expect(await svc.container.bus.drain(10_000)).toBe(true);
  });

  afterAll(async () => {
    await svc?.close();
    await isolation?.dispose();
  });

  const sessionCounted = () =>
    eventually(
      async () =>
        (await get(`/organizations/${app.org.id}/journey/stats/dashboard`, 'analyst@journey.example')).json().summary
          ?.totalSessions === 1,
      15_000,
      'the session counted',
    );

  it("answers the journey API's dashboard and a session's events to a member, analysts included", async () => {
    await sessionCounted();
    const dashboard = (
      await get(`/organizations/${app.org.id}/journey/stats/dashboard`, 'analyst@journey.example')
    ).json();
    const api = (
      await svc.inject({
        method: 'GET',
        url: '/api/v1/cross-platform/stats/dashboard',
        headers: { 'x-api-key': app.org.apiKey },
      })
    ).json();
    expect(dashboard).toEqual(api);
    expect(dashboard.topUtmSources[0]).toMatchObject({ utmSource: 'newsletter', sessions: 1 });
    const list = (
      await get(`/organizations/${app.org.id}/journey/stats/sessions/list`, 'analyst@journey.example')
    ).json();
    expect(list.content.map((s: { sessionId: string }) => s.sessionId)).toEqual([sessionId]);
    await eventually(
      async () =>
        (
          await get(`/organizations/${app.org.id}/journey/session/${sessionId}/events`, 'analyst@journey.example')
        ).json().totalElements === 1,
      15_000,
      'the event listed',
    );
    const events = (
      await get(`/organizations/${app.org.id}/journey/session/${sessionId}/events`, 'analyst@journey.example')
    ).json();
    expect(events.content[0]).toMatchObject({ eventType: 'page_view', properties: { path: '/items/42' } });
  });

  it("compares the journey's figures with the previous period: today's session is new against yesterday by this time", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await sessionCounted();
    const res = await get(
      `/organizations/${app.org.id}/journey/dashboard?startDate=${today}&endDate=${today}&timeZone=UTC&compare=previous`,
      'analyst@journey.example',
    );
    expect(res.statusCode, res.body).toBe(200);
    const { comparison, ...dashboard } = res.json();
    const api = (
      await svc.inject({
        method: 'GET',
        url: `/api/v1/cross-platform/stats/dashboard?startDate=${today}&endDate=${today}&timeZone=UTC`,
        headers: { 'x-api-key': app.org.apiKey },
      })
    ).json();
    // The journey API's own answer, and nothing of the comparison in it.
    expect(dashboard).toEqual(api);
    expect(api.comparison).toBeUndefined();
    expect(comparison).toMatchObject({
      startDate: yesterday,
      endDate: yesterday,
      comparable: true,
      totalSessions: { current: 1, previous: 0, change: null, trend: 'new' },
      goalCompletions: { current: 0, previous: 0, change: null, trend: 'none' },
    });
    expect(comparison.until).not.toBeNull();
    expect(comparison.daily.map((d: { date: string }) => d.date)).toEqual([yesterday]);
    // Each platform and UTM source against its sessions of the previous period: the session is new there.
    expect(comparison.platforms).toHaveLength(dashboard.platforms.length);
    for (const [i, p] of (dashboard.platforms as { platform: string; sessions: number }[]).entries())
      expect(comparison.platforms[i]).toEqual({
        name: p.platform,
        compared: { current: p.sessions, previous: 0, change: null, trend: p.sessions > 0 ? 'new' : 'none' },
      });
    expect(comparison.topUtmSources.map((u: { name: string }) => u.name)).toEqual(
      dashboard.topUtmSources.map((u: { utmSource: string }) => u.utmSource),
    );
    const platforms = await get(
      `/organizations/${app.org.id}/journey/export.csv?startDate=${today}&endDate=${today}&timeZone=UTC&panel=platforms&compare=previous`,
      'analyst@journey.example',
    );
    expect(platforms.statusCode, platforms.body).toBe(200);
    const lines = platforms.body.replace('\uFEFF', '').trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'platform,sessions,percentage,uniqueUsers,convertedSessions,conversionRate,previousSessions,change,trend',
    );
    // Each platform's row ends with its previous sessions (none), no change and its trend.
    expect(lines.slice(1).map((l) => l.split(',').slice(-3).join(','))).toEqual(
      (dashboard.platforms as { sessions: number }[]).map((p) => (p.sessions > 0 ? '0,,new' : '0,,none')),
    );
    // Off: the period alone.
    expect(
      (await get(`/organizations/${app.org.id}/journey/dashboard?timeZone=UTC`, 'analyst@journey.example')).json()
        .comparison,
    ).toBeNull();
  });

  it('exports a journey panel as CSV with the numbers the journey API answers', async () => {
    const api = (
      await svc.inject({
        method: 'GET',
        url: '/api/v1/cross-platform/stats/dashboard?timeZone=Asia/Seoul',
        headers: { 'x-api-key': app.org.apiKey },
      })
    ).json();
    const csv = await get(
      `/organizations/${app.org.id}/journey/export.csv?timeZone=Asia/Seoul&panel=utmSources`,
      'analyst@journey.example',
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = csv.body.replace('\uFEFF', '').trimEnd().split('\r\n');
    expect(rows).toEqual([
      'utmSource,sessions,percentage,convertedSessions,conversionRate',
      ...api.topUtmSources.map((u: Record<string, unknown>) =>
        [u.utmSource, u.sessions, u.percentage, u.convertedSessions, u.conversionRate].join(','),
      ),
    ]);
    const daily = await get(
      `/organizations/${app.org.id}/journey/export.csv?timeZone=Asia/Seoul&panel=daily`,
      'analyst@journey.example',
    );
    expect(daily.body.split('\r\n')[0]).toBe(
      '\uFEFFdate (Asia/Seoul),sessions,uniqueUsers,events,transitions,goalCompletions',
    );
    expect(daily.body.trimEnd().split('\r\n')).toHaveLength(1 + api.daily.length);
    expect(
      (await get(`/organizations/${without.org.id}/journey/export.csv?panel=daily`, 'owner@nojourney.example')).json()
        .code,
    ).toBe('ADD_ON_REQUIRED');
  });

  it('says which add-on is missing, and shows another organization nothing', async () => {
    const refused = await get(`/organizations/${without.org.id}/journey/stats/dashboard`, 'owner@nojourney.example');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ADD_ON_REQUIRED');
    expect(
      (await get(`/organizations/${app.org.id}/journey/stats/dashboard`, 'owner@nojourney.example')).statusCode,
    ).toBe(404);
    expect(
      (await get(`/organizations/${app.org.id}/journey/session/${sessionId}/events`, 'owner@nojourney.example'))
        .statusCode,
    ).toBe(404);
    // No write of the journey API is served to the console.
    const write = await svc.inject({
      method: 'POST',
      url: `/console/api/organizations/${app.org.id}/journey/session/event`,
      headers: { cookie: cookies['analyst@journey.example']! },
      payload: { sessionId, eventType: 'x' },
    });
    expect(write.statusCode).toBe(404);
  });
});
