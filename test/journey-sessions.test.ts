// User-journey sessions, events, transitions and funnel (/api/v1/cross-platform) through the real
// service: authentication (400/401/403/429), CORS, every endpoint's success and failure paths,
// reads that see writes within seconds, eventId and transactionId recorded once, and another
// organization's session as 404.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, type HttpAnswer, ISO_UTC } from './support/error-body.js';
import { journeyClient, journeyOrg, type JourneyApp } from './support/journey.js';
import { eventually, serviceForFile } from './support/service.js';

let acme: JourneyApp;
let rival: JourneyApp;
let call: ReturnType<typeof journeyClient>;
let rivalCall: ReturnType<typeof journeyClient>;

const svc = serviceForFile();

beforeAll(async () => {
  acme = await journeyOrg(svc, 'Acme');
  rival = await journeyOrg(svc, 'Rival', 'ENTERPRISE', false);
  call = journeyClient(svc, acme);
  rivalCall = journeyClient(svc, rival);
});

async function newSession(
  body: Record<string, unknown> = {},
  client = call,
): Promise<{ sessionId: string } & Record<string, unknown>> {
  const res = await client('POST', '/session/create', { platform: 'WEB', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('authentication', () => {
  it('answers 400 APP_ID_MISSING without X-App-ID (401 where the key is required too), 401 for an unknown app or a wrong key', async () => {
    expectError(
      await svc.inject({ method: 'POST', url: '/api/v1/sdk/web/journey/session/create', payload: { platform: 'WEB' } }),
      400,
      { code: 'APP_ID_MISSING' },
    );
    expectError(
      await svc.inject({ method: 'POST', url: '/api/v1/cross-platform/identify', payload: { externalUserId: 'u' } }),
      400,
      { code: 'APP_ID_MISSING' },
    );
    expectError(
      await svc.inject({ method: 'POST', url: '/api/v1/cross-platform/session/create', payload: { platform: 'WEB' } }),
      401,
      { code: 'APP_CREDENTIALS_MISSING' },
    );
    expectError(
      await call('POST', '/session/create', { platform: 'WEB' }, { headers: { 'x-app-id': '999999' } }),
      401,
      { code: 'APP_CREDENTIALS_INVALID' },
    );
    expectError(
      await call('POST', '/session/create', { platform: 'WEB' }, { headers: { 'x-mobile-app-api-key': 'wrong' } }),
      401,
      { code: 'APP_CREDENTIALS_INVALID' },
    );
    expectError(await call('POST', '/identify', { externalUserId: 'u' }, { headers: { 'x-app-id': 'abc' } }), 400, {
      code: 'APP_ID_INVALID',
    });
  });

  it('session endpoints require X-Mobile-App-API-Key on /api/v1/cross-platform (spec); browsers use /api/v1/sdk/web/journey with the app id alone', async () => {
    expect((await call('POST', '/session/create', { platform: 'IOS' }, { mobile: true })).statusCode).toBe(201);
    const session = (await call('POST', '/session/create', { platform: 'WEB' })).json();
    for (const [method, url, body] of [
      ['POST', '/session/create', { platform: 'WEB' }],
      ['GET', `/session/${session.sessionId}`, undefined],
      ['POST', `/session/${session.sessionId}/link-user`, { externalUserId: 'm-1' }],
      ['POST', '/session/register-fplink', { sessionId: session.sessionId, shortCode: 'zzzzzzz' }],
      ['POST', '/session/event', { sessionId: session.sessionId, eventType: 'page_view' }],
      ['GET', `/session/${session.sessionId}/events`, undefined],
      ['POST', '/session/transition', { sessionId: session.sessionId, fromPlatform: 'WEB', toPlatform: 'IOS' }],
      ['GET', `/session/${session.sessionId}/transitions`, undefined],
      ['POST', '/session/funnel/track', { sessionId: session.sessionId, stage: 'CLICKED' }],
    ] as const) {
      expectError(await call(method, url, body, { crossPlatform: true }), 401, { code: 'APP_CREDENTIALS_MISSING' });
      // The same call from a browser, on the web SDK API: not refused for its credentials.
      expect((await call(method, url, body)).statusCode, `${method} ${url}`).not.toBe(401);
    }
    // identify and opt-in stay open to browsers on /api/v1/cross-platform, as the spec says.
    expect((await call('POST', '/identify', { externalUserId: 'browser-user' })).statusCode).toBe(201);
  });

  it('answers 403 ADD_ON_REQUIRED on session endpoints without the user-journey add-on, but lets identify through', async () => {
    const plain = await journeyOrg(svc, 'No add-on', 'BUSINESS', false);
    const plainCall = journeyClient(svc, plain);
    expectError(await plainCall('POST', '/session/create', { platform: 'WEB' }), 403, { code: 'ADD_ON_REQUIRED' });
    expectError(await plainCall('POST', '/session/event', { sessionId: 'x', eventType: 'a' }), 403, {
      code: 'ADD_ON_REQUIRED',
    });
    expectError(await plainCall('GET', '/stats/summary', undefined, { mobile: true }), 403, {
      code: 'ADD_ON_REQUIRED',
    });
    expect((await plainCall('POST', '/identify', { externalUserId: 'no-add-on-user' })).statusCode).toBe(201);
    // The operator grants it: the next call goes through.
    await svc.admin('PUT', `/organizations/${plain.org.id}/add-ons`, { userJourney: true });
    expect((await plainCall('POST', '/session/create', { platform: 'WEB' })).statusCode).toBe(201);
  });

  it('answers 429 with Retry-After once a browser address has used its budget for the app', async () => {
    const limiter = svc.container.deps.sdk.rateLimit;
    const ip = '192.0.2.99';
    let res: HttpAnswer | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      // Use up this address's budget for the app, then call at once (retry if a token refilled in between).
      try {
        for (let i = 0; i < 1000; i++) limiter.keyless(acme.appId, ip);
      } catch {
        // used up
      }
      res = await svc.inject({
        method: 'GET',
        url: '/api/v1/sdk/web/journey/session/00000000-0000-7000-8000-000000000000',
        headers: { 'x-app-id': String(acme.appId) },
        remoteAddress: ip,
      });
      if (res.statusCode === 429) break;
    }
    expectError(res!, 429, { code: 'RATE_LIMITED' });
    expect(Number(res!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Other addresses, and the app's own key, are served.
    expect((await call('GET', '/session/00000000-0000-7000-8000-000000000000')).statusCode).not.toBe(429);
    expect(
      (await call('GET', '/session/00000000-0000-7000-8000-000000000000', undefined, { mobile: true })).statusCode,
    ).not.toBe(429);
  });

  it('answers CORS preflights and marks answers readable by any origin', async () => {
    const pre = await svc.inject({
      method: 'OPTIONS',
      url: '/api/v1/cross-platform/session/event',
      headers: {
        origin: 'https://shop.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-app-id',
      },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(String(pre.headers['access-control-allow-headers']).toLowerCase()).toContain('x-app-id');
    expect(String(pre.headers['access-control-allow-methods'])).toContain('POST');
    const res = await call(
      'POST',
      '/identify',
      { externalUserId: 'cors-user' },
      { headers: { origin: 'https://shop.example.com' } },
    );
    expect(res.headers['access-control-allow-origin']).toBe('*');
    // Errors too, or a browser could not read why it failed.
    const err = await svc.inject({
      method: 'POST',
      url: '/api/v1/cross-platform/identify',
      headers: { origin: 'https://shop.example.com' },
      payload: {},
    });
    expect(err.statusCode).toBe(400);
    expect(err.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('sessions', () => {
  it('creates a session: 201 with its id, start time and every field', async () => {
    const res = await call('POST', '/session/create', {
      platform: 'WEB',
      deepLinkToken: 'tok_123',
      utmSource: 'kakao',
      utmMedium: 'social',
      utmCampaign: 'winter',
      referrer: 'https://m.search.naver.com/search?q=coat',
      landingUrl: 'https://shop.example.com/items/42',
      externalUserId: 'member-1',
    });
    expect(res.statusCode).toBe(201);
    const s = res.json();
    expect(s.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.startedAt).toMatch(ISO_UTC);
    expect(s).toMatchObject({
      appId: acme.appId,
      platform: 'WEB',
      deepLinkToken: 'tok_123',
      utmSource: 'kakao',
      utmMedium: 'social',
      utmCampaign: 'winter',
      referrer: 'https://m.search.naver.com/search?q=coat',
      landingUrl: 'https://shop.example.com/items/42',
      externalUserId: 'member-1',
      link: null,
    });
    // The start reaches ClickHouse (statistics, webhooks) with the referrer's host only.
    const rows = await eventually(
      async () => {
        const r = await svc.clickhouse<{ platform: string; referrer_host: string; utm_source: string }>(
          'SELECT platform, referrer_host, utm_source FROM journey_session_starts WHERE session_id = {s:String}',
          { s: s.sessionId },
        );
        return r.length > 0 && r;
      },
      10_000,
      'session start in ClickHouse',
    );
    expect(rows[0]).toEqual({ platform: 'WEB', referrer_host: 'm.search.naver.com', utm_source: 'kakao' });
  });

  it('refuses a bad body with 400 naming the field', async () => {
    expectError(await call('POST', '/session/create', { platform: 'WINDOWS' }), 400, {
      field: 'platform',
      code: 'VALIDATION_FAILED',
    });
    expectError(await call('POST', '/session/create', {}), 400, { field: 'platform' });
    expectError(await call('POST', '/session/create', { platform: 'WEB', utmSource: 'x'.repeat(101) }), 400, {
      field: 'utmSource',
    });
    expectError(await call('POST', '/session/create', { platform: 'WEB', externalUserId: '' }), 400, {
      field: 'externalUserId',
    });
  });

  it("reads a session; an unknown id, a malformed one and another organization's are 404", async () => {
    const s = await newSession({ utmSource: 'naver' });
    const res = await call('GET', `/session/${s.sessionId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(s);
    expectError(await call('GET', '/session/0193a1f2-7c4e-7b21-9a55-1f6d2c3b4a59'), 404, { code: 'SESSION_NOT_FOUND' });
    expectError(await call('GET', '/session/not-a-uuid'), 404, { code: 'SESSION_NOT_FOUND' });
    const theirs = await newSession({}, rivalCall);
    expectError(await call('GET', `/session/${theirs.sessionId}`), 404, { code: 'SESSION_NOT_FOUND' });
    expectError(await call('POST', '/session/event', { sessionId: theirs.sessionId, eventType: 'page_view' }), 404, {
      code: 'SESSION_NOT_FOUND',
    });
    expectError(await call('GET', `/session/${theirs.sessionId}/events`), 404, { code: 'SESSION_NOT_FOUND' });
    expectError(await call('POST', `/session/${theirs.sessionId}/link-user`, { externalUserId: 'x' }), 404);
    expectError(await call('POST', '/session/funnel/track', { sessionId: theirs.sessionId, stage: 'CLICKED' }), 404);
  });

  it('links a user; later events carry the externalUserId', async () => {
    const s = await newSession();
    expect(s.externalUserId).toBeNull();
    const res = await call('POST', `/session/${s.sessionId}/link-user`, { externalUserId: 'member-77' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ sessionId: s.sessionId, externalUserId: 'member-77' });
    expect(res.json().userLinkedAt).toMatch(ISO_UTC);
    expectError(await call('POST', `/session/${s.sessionId}/link-user`, {}), 400, { field: 'externalUserId' });
    await call('POST', '/session/event', { sessionId: s.sessionId, eventType: 'page_view' });
    const events = await eventually(
      async () => {
        const page = (await call('GET', `/session/${s.sessionId}/events`)).json();
        return page.content.length === 1 && page;
      },
      10_000,
      'event listed',
    );
    expect(events.content[0].externalUserId).toBe('member-77');
  });

  it('registers the link a session came from: by short code, link address, campaign id or alias', async () => {
    const url = await svc.createLink(acme.org, { url: 'https://example.com/coat', customAlias: 'coat-sale' });
    const campaign = await svc.createCampaign(acme.org, {
      name: 'Winter',
      alias: 'winter-2026',
      originalUrl: 'https://example.com/w',
    });
    const s = await newSession();
    const byCode = await call('POST', '/session/register-fplink', { sessionId: s.sessionId, shortCode: 'coat-sale' });
    expect(byCode.statusCode, byCode.body).toBe(200);
    expect(byCode.json().link).toMatchObject({ type: 'url', id: url.id, code: 'coat-sale' });
    const byLink = await call('POST', '/session/register-fplink', {
      sessionId: s.sessionId,
      link: 'http://localhost:8080/winter-2026?cid=7',
    });
    expect(byLink.json().link).toMatchObject({ type: 'campaign', id: campaign.id, code: 'winter-2026' });
    const byId = await call('POST', '/session/register-fplink', { sessionId: s.sessionId, urlId: url.id });
    expect(byId.json().link).toMatchObject({ type: 'url', id: url.id });
    const byAlias = await call('POST', '/session/register-fplink', {
      sessionId: s.sessionId,
      campaignAlias: 'winter-2026',
    });
    expect(byAlias.json().link).toMatchObject({ type: 'campaign', id: campaign.id });
    expect((await call('GET', `/session/${s.sessionId}`)).json().link).toMatchObject({
      type: 'campaign',
      id: campaign.id,
    });

    // Funnel stages without their own link are credited to the registered one.
    const tracked = await call('POST', '/session/funnel/track', { sessionId: s.sessionId, stage: 'CLICKED' });
    expect(tracked.json()).toMatchObject({ campaignId: campaign.id, urlId: null });

    expectError(
      await call('POST', '/session/register-fplink', { sessionId: s.sessionId, shortCode: 'nope-nope' }),
      404,
      { code: 'LINK_NOT_FOUND' },
    );
    expectError(await call('POST', '/session/register-fplink', { sessionId: s.sessionId, campaignId: 999999 }), 404, {
      code: 'LINK_NOT_FOUND',
    });
    expectError(await call('POST', '/session/register-fplink', { sessionId: s.sessionId }), 400, {
      code: 'VALIDATION_FAILED',
    });
    expectError(
      await call('POST', '/session/register-fplink', {
        sessionId: s.sessionId,
        urlId: url.id,
        campaignId: campaign.id,
      }),
      400,
    );
    expectError(
      await call('POST', '/session/register-fplink', {
        sessionId: '0193a1f2-7c4e-7b21-9a55-1f6d2c3b4a59',
        urlId: url.id,
      }),
      404,
      { code: 'SESSION_NOT_FOUND' },
    );
    // Another organization's link is not found either.
    const theirs = await newSession({}, rivalCall);
    expectError(
      await rivalCall('POST', '/session/register-fplink', { sessionId: theirs.sessionId, urlId: url.id }),
      404,
      { code: 'LINK_NOT_FOUND' },
    );
  });
});

describe('events', () => {
  it("records events (201 with the stored event's id, a status of the spec's table) and lists them newest first, paged, within seconds", async () => {
    const s = await newSession();
    const times = ['2026-11-20T10:00:00.000Z', '2026-11-20T10:00:01.000Z', '2026-11-20T10:00:02.000Z'];
    const answers = [];
    for (const [i, at] of times.entries()) {
      const res = await call('POST', '/session/event', {
        sessionId: s.sessionId,
        eventType: ['page_view', 'click', 'purchase'][i],
        properties: { n: i, item: { id: 42 } },
        occurredAt: at,
      });
      expect(res.statusCode, res.body).toBe(201);
      answers.push(res.json());
    }
    expect(answers[0]).toMatchObject({
      accepted: true,
      sessionId: s.sessionId,
      eventType: 'page_view',
      occurredAt: times[0],
    });
    const page = await eventually(
      async () => {
        const p = (await call('GET', `/session/${s.sessionId}/events?size=2`)).json();
        // The page and its count are two reads: wait until both have seen the newest event.
        return p.totalElements === 3 && p.content.length === 2 && p.content[0]?.eventType === 'purchase' && p;
      },
      10_000,
      'three events listed',
    );
    expect(page).toMatchObject({ page: 0, size: 2, totalElements: 3, totalPages: 2, first: true, last: false });
    expect(page.content.map((e: { eventType: string }) => e.eventType)).toEqual(['purchase', 'click']);
    expect(page.content[0]).toEqual({
      eventId: answers[2].eventId,
      sessionId: s.sessionId,
      eventType: 'purchase',
      properties: { n: 2, item: { id: 42 } },
      platform: 'WEB',
      externalUserId: null,
      occurredAt: times[2],
    });
    const second = (await call('GET', `/session/${s.sessionId}/events?size=2&page=1`)).json();
    expect(second.content.map((e: { eventType: string }) => e.eventType)).toEqual(['page_view']);
    expect(second.last).toBe(true);
    const filtered = (await call('GET', `/session/${s.sessionId}/events?eventType=click`)).json();
    expect(filtered.totalElements).toBe(1);
  });

  it('records an eventId sent twice once', async () => {
    const s = await newSession();
    const eventId = '7d0c6f1e-3b2a-4c5d-8e9f-0a1b2c3d4e5f';
    for (let i = 0; i < 2; i++) {
      const res = await call('POST', '/session/event', {
        sessionId: s.sessionId,
        eventType: 'purchase',
        properties: {},
        eventId,
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().eventId).toBe(eventId);
      await svc.container.events.flush();
    }
    await call('POST', '/session/event', { sessionId: s.sessionId, eventType: 'page_view' });
    const page = await eventually(
      async () => {
        const p = (await call('GET', `/session/${s.sessionId}/events`)).json();
        return p.content.length === 2 && p;
      },
      10_000,
      'two events',
    );
    expect(await svc.container.bus.drain(10_000)).toBe(true);
    const again = (await call('GET', `/session/${s.sessionId}/events`)).json();
    expect(again.totalElements).toBe(2);
    expect(again.content.filter((e: { eventId: string }) => e.eventId === eventId)).toHaveLength(1);
    expect(page.content).toHaveLength(2);
  });

  it('refuses bad events with 400 naming the field', async () => {
    const s = await newSession();
    expectError(await call('POST', '/session/event', { sessionId: s.sessionId }), 400, { field: 'eventType' });
    expectError(
      await call('POST', '/session/event', { sessionId: s.sessionId, eventType: 'x', properties: [1, 2] }),
      400,
      { field: 'properties' },
    );
    expectError(
      await call('POST', '/session/event', {
        sessionId: s.sessionId,
        eventType: 'x',
        properties: { big: 'y'.repeat(20_000) },
      }),
      400,
      { field: 'properties' },
    );
    expectError(
      await call('POST', '/session/event', { sessionId: s.sessionId, eventType: 'x', eventId: 'not-a-uuid' }),
      400,
      { field: 'eventId' },
    );
    expectError(
      await call('POST', '/session/event', { sessionId: s.sessionId, eventType: 'x', occurredAt: 'yesterday' }),
      400,
      { field: 'occurredAt' },
    );
    expectError(
      await call('POST', '/session/event', {
        sessionId: s.sessionId,
        eventType: 'x',
        occurredAt: '2020-01-01T00:00:00Z',
      }),
      400,
      { field: 'occurredAt' },
    );
    expectError(await call('POST', '/session/event', { eventType: 'x' }), 400, { field: 'sessionId' });
    expectError(await call('GET', `/session/${s.sessionId}/events?size=500`), 400, { field: 'size' });
  });
});

describe('transitions', () => {
  it('records a platform transition with the deep link that carried it and lists it', async () => {
    const web = await newSession({ externalUserId: 'member-9' });
    const app = await newSession({ platform: 'IOS' }, call);
    const campaign = await svc.createCampaign(acme.org, {
      name: 'T',
      alias: 'transit-1',
      originalUrl: 'https://example.com/t',
    });
    const res = await call('POST', '/session/transition', {
      sessionId: web.sessionId,
      fromPlatform: 'WEB',
      toPlatform: 'IOS',
      targetSessionId: app.sessionId,
      campaignId: campaign.id,
      deepLinkToken: 'dlt_abc',
      properties: { screen: 'product/42' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json();
    expect(t).toMatchObject({
      sessionId: web.sessionId,
      fromPlatform: 'WEB',
      toPlatform: 'IOS',
      targetSessionId: app.sessionId,
      campaignId: campaign.id,
      urlId: null,
      deepLinkToken: 'dlt_abc',
      externalUserId: 'member-9',
    });
    const page = await eventually(
      async () => {
        const p = (await call('GET', `/session/${web.sessionId}/transitions`)).json();
        return p.content.length === 1 && p;
      },
      10_000,
      'transition listed',
    );
    expect(page.content[0]).toEqual({ ...t, properties: { screen: 'product/42' } });
  });

  it('refuses a transition to the same platform, an unknown target session or link', async () => {
    const s = await newSession();
    expectError(
      await call('POST', '/session/transition', { sessionId: s.sessionId, fromPlatform: 'WEB', toPlatform: 'WEB' }),
      400,
      { field: 'toPlatform' },
    );
    expectError(
      await call('POST', '/session/transition', { sessionId: s.sessionId, fromPlatform: 'WEB', toPlatform: 'MAC' }),
      400,
      { field: 'toPlatform' },
    );
    expectError(
      await call('POST', '/session/transition', {
        sessionId: s.sessionId,
        fromPlatform: 'WEB',
        toPlatform: 'IOS',
        targetSessionId: '0193a1f2-7c4e-7b21-9a55-1f6d2c3b4a59',
      }),
      404,
      { code: 'SESSION_NOT_FOUND' },
    );
    expectError(
      await call('POST', '/session/transition', {
        sessionId: s.sessionId,
        fromPlatform: 'WEB',
        toPlatform: 'IOS',
        urlId: 987654,
      }),
      404,
      { code: 'LINK_NOT_FOUND' },
    );
    expectError(await call('GET', '/session/0193a1f2-7c4e-7b21-9a55-1f6d2c3b4a59/transitions'), 404, {
      code: 'SESSION_NOT_FOUND',
    });
  });
});

describe('funnel', () => {
  it("tracks stages (201 with the stored row's eventId) and records a repeated transactionId once (200), saying it was a duplicate", async () => {
    const s = await newSession({ externalUserId: 'buyer-1' });
    const stage = await call('POST', '/session/funnel/track', { sessionId: s.sessionId, stage: 'CONTENT_VIEWED' });
    expect(stage.statusCode).toBe(201);
    expect(stage.json()).toMatchObject({
      recorded: true,
      duplicate: false,
      stage: 'CONTENT_VIEWED',
      sessionId: s.sessionId,
    });

    const goal = {
      sessionId: s.sessionId,
      stage: 'GOAL_COMPLETED',
      goalType: 'purchase_KRW',
      goalValue: 39000,
      currency: 'krw',
      transactionId: 'order-1001',
    };
    const first = await call('POST', '/session/funnel/track', goal);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      recorded: true,
      duplicate: false,
      goalType: 'purchase_KRW',
      goalValue: 39000,
      currency: 'KRW',
      transactionId: 'order-1001',
    });
    // Again, even from another session of the organization: recorded once.
    const other = await newSession();
    const repeat = await call('POST', '/session/funnel/track', { ...goal, sessionId: other.sessionId });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toMatchObject({
      recorded: false,
      duplicate: true,
      eventId: first.json().eventId,
      sessionId: s.sessionId,
    });
    // Another organization's order-1001 is its own.
    const theirs = await newSession({}, rivalCall);
    expect(
      (await rivalCall('POST', '/session/funnel/track', { ...goal, sessionId: theirs.sessionId })).statusCode,
    ).toBe(201);

    await svc.container.events.flush();
    const rows = await eventually(
      async () => {
        const r = await svc.clickhouse<{
          session_id: string;
          stage: string;
          goal_value: number;
          currency: string;
          external_user_id: string;
        }>(
          `SELECT session_id, toString(stage) AS stage, goal_value, toString(currency) AS currency, external_user_id FROM journey_funnel
         WHERE organization_id = {o:UInt64} AND transaction_id = 'order-1001'`,
          { o: acme.org.id },
        );
        return r.length > 0 && r;
      },
      10_000,
      'goal in ClickHouse',
    );
    expect(await svc.container.bus.drain(10_000)).toBe(true);
    expect(rows).toEqual([
      {
        session_id: s.sessionId,
        stage: 'GOAL_COMPLETED',
        goal_value: 39000,
        currency: 'KRW',
        external_user_id: 'buyer-1',
      },
    ]);
  });

  it('refuses bad stages and goal fields with 400 naming the field', async () => {
    const s = await newSession();
    expectError(await call('POST', '/session/funnel/track', { sessionId: s.sessionId, stage: 'APP_INSTALLED' }), 400, {
      field: 'stage',
    });
    expectError(
      await call('POST', '/session/funnel/track', {
        sessionId: s.sessionId,
        stage: 'GOAL_COMPLETED',
        goalValue: 'lots',
      }),
      400,
      { field: 'goalValue' },
    );
    expectError(
      await call('POST', '/session/funnel/track', {
        sessionId: s.sessionId,
        stage: 'GOAL_COMPLETED',
        currency: 'WON!',
      }),
      400,
      { field: 'currency' },
    );
    expectError(
      await call('POST', '/session/funnel/track', {
        sessionId: s.sessionId,
        stage: 'GOAL_COMPLETED',
        goalType: 'g'.repeat(51),
      }),
      400,
      { field: 'goalType' },
    );
    expectError(
      await call('POST', '/session/funnel/track', { sessionId: s.sessionId, stage: 'CLICKED', timestamp: 'soon' }),
      400,
      { field: 'timestamp' },
    );
  });
});

describe('OpenAPI', () => {
  it('documents every user-journey route with its schemas and examples', async () => {
    const doc = (await svc.inject({ method: 'GET', url: '/openapi.json' })).json();
    const paths = Object.keys(doc.paths).filter((p) => p.startsWith('/api/v1/cross-platform'));
    for (const p of [
      '/session/create',
      '/session/{sessionId}',
      '/session/{sessionId}/link-user',
      '/session/register-fplink',
      '/identify',
      '/opt-in',
      '/session/event',
      '/session/{sessionId}/events',
      '/session/transition',
      '/session/{sessionId}/transitions',
      '/session/funnel/track',
      '/stats/dashboard',
      '/stats/summary',
      '/stats/daily',
      '/stats/sessions/summary',
      '/stats/sessions/by-platform',
      '/stats/sessions/by-utm-source',
      '/stats/sessions/list',
      '/stats/transitions/summary',
      '/stats/transitions/trend',
    ]) {
      expect(paths).toContain(`/api/v1/cross-platform${p}`);
    }
    expect(doc.paths['/api/v1/service/users/{externalUserId}']).toBeDefined();
    expect(JSON.stringify(doc.components.schemas.JourneySession)).toContain('examples');
    const create = doc.paths['/api/v1/cross-platform/session/create'].post;
    expect(create.responses['201']).toBeDefined();
    expect(JSON.stringify(create.requestBody)).toContain('winter-sale');
    // The key on the user-journey API, the app id alone on its browser side.
    expect(create.security).toEqual([{ appId: [], mobileAppKey: [] }]);
    expect(doc.paths['/api/v1/sdk/web/journey/session/create'].post.security).toEqual([{ appId: [] }]);
    expect(doc.paths['/api/v1/sdk/web/journey/session/funnel/track'].post.responses['201']).toBeDefined();
  });
});
