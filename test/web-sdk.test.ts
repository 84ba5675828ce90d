// The web SDK: (1) as the service serves it (bundle with year-long cache headers and a strong ETag,
// under 10 KB gzipped, the changelog, the version endpoint with CORS, loadable by a phone's browser);
// (2) its tracking semantics in a real browser against a recording HTTP receiver that answers the
// user-journey and Web SDK paths as the service does: purchase goal types, transactionId dedup across a reload,
// goalType precedence, the event log, retries, final 4xx answers, and a host page that never sees an
// error of ours even with the service down.
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WEB_SDK_CHANGELOG_PATH, WEB_SDK_NAME, WEB_SDK_VERSION, webSdkPath } from '../src/web-sdk/version.js';
import { launchChromium } from './support/chromium.js';
import { DEVICES, phoneContext } from './support/mobile-browser.js';
import { startReceiver, type Receiver } from './support/sdk-receiver.js';
import { isolate, startService, type Isolation, type TestService } from './support/service.js';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe('served by the service', () => {
  let isolation: Isolation;
  let svc: TestService;

  beforeAll(async () => {
    isolation = await isolate();
    svc = await startService(isolation, { PUBLIC_BASE_URL: 'https://sgnp.example' });
  });

  afterAll(async () => {
    await svc?.close();
    await isolation?.dispose();
  });

  it('names the version, the bundle and the changelog, to any origin', async () => {
    const res = await svc.inject({
      method: 'GET',
      url: '/api/v1/sdk/web/version',
      headers: { origin: 'https://shop.example' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.json()).toEqual({
      version: WEB_SDK_VERSION,
      sdkUrl: `/sdk/web/${WEB_SDK_VERSION}/signpost.js`,
      changelogUrl: WEB_SDK_CHANGELOG_PATH,
      name: WEB_SDK_NAME,
    });
    const preflight = await svc.inject({
      method: 'OPTIONS',
      url: '/api/v1/sdk/web/version',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-app-id',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/X-App-ID/i);
  });

  it('serves the bundle for a year, immutable, with a strong ETag, under 10 KB gzipped', async () => {
    const gz = await svc.inject({ method: 'GET', url: webSdkPath(), headers: { 'accept-encoding': 'gzip' } });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/Accept-Encoding/);
    const etag = String(gz.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/); // strong: no W/ prefix
    const gzipBytes = gz.rawPayload.length;
    const code = gunzipSync(gz.rawPayload).toString('utf8');
    console.log(`web SDK bundle: ${code.length} bytes, ${gzipBytes} bytes gzipped`);
    expect(gzipBytes).toBeLessThan(10 * 1024);
    expect(code).toContain('Signpost');
    expect(code).not.toMatch(/\bimport\s*[{*(]|\brequire\(/); // one self-contained file

    const plain = await svc.inject({ method: 'GET', url: webSdkPath() });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(code);
    expect(plain.headers.etag).not.toBe(etag); // other bytes, other strong validator

    const revalidated = await svc.inject({
      method: 'GET',
      url: webSdkPath(),
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload.length).toBe(0);

    const other = await svc.inject({ method: 'GET', url: '/sdk/web/0.0.1/signpost.js' });
    expect(other.statusCode).toBe(404);
  });

  it('serves the changelog', async () => {
    const res = await svc.inject({ method: 'GET', url: WEB_SDK_CHANGELOG_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.body).toContain(`## ${WEB_SDK_VERSION}`);
  });

  it('loads in a phone browser from the service and exposes window.Signpost', async () => {
    await svc.container.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = svc.container.app.server.address() as AddressInfo;
    const context = await phoneContext(browser, DEVICES.iphoneSafari);
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      // A customer's page on another origin, served for real (Chromium keeps pages that do not come
      // from a loopback address off loopback addresses).
      const html = `<!doctype html><html lang="en"><title>shop</title><script src="http://127.0.0.1:${port}${webSdkPath()}" data-app-id="7"></script>`;
      const shopServer = http.createServer((_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end(html),
      );
      await new Promise<void>((resolve) => shopServer.listen(0, '127.0.0.1', resolve));
      const shop = `http://127.0.0.1:${(shopServer.address() as AddressInfo).port}/`;
      await page.goto(shop);
      expect(await page.evaluate(`({ version: Signpost.version, methods: Object.keys(Signpost).sort() })`)).toEqual({
        version: WEB_SDK_VERSION,
        methods: ['init', 'trackConversion', 'trackEvent', 'trackGoal', 'trackPurchase', 'trackSignup', 'version'],
      });
      expect(errors).toEqual([]);
      shopServer.close();
    } finally {
      await context.close();
    }
  });
});

describe('tracking in the browser', () => {
  let receiver: Receiver;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];

  const FUNNEL = '/api/v1/sdk/web/journey/session/funnel/track';
  const EVENT = '/api/v1/sdk/web/journey/session/event';
  const CREATE = '/api/v1/sdk/web/journey/session/create';

  /** A customer's shop page on another origin than the API, with the SDK initialised. */
  const shopPage = (initGoalType: string | null) =>
    `<!doctype html><html lang="en"><head><title>Shop</title>` +
    `<script src="${receiver.apiBase}${receiver.sdkPath}"></script>` +
    `<script>Signpost.init({ appId: 42, apiBase: ${JSON.stringify(receiver.apiBase)}, goalType: ${JSON.stringify(initGoalType)} });` +
    `window.addEventListener('unhandledrejection', function (e) { (window.__rejections = window.__rejections || []).push(String(e.reason)); });</script>` +
    `</head><body><h1>Shop</h1></body></html>`;

  beforeAll(async () => {
    receiver = await startReceiver();
    receiver.page('/shop', shopPage('init_goal'));
    receiver.page('/shop-without-goal', shopPage(null));
    receiver.page(
      '/shop-no-init',
      `<!doctype html><html lang="en"><title>x</title><script src="${receiver.apiBase}${receiver.sdkPath}"></script>`,
    );
  });

  beforeEach(async () => {
    receiver.reset();
    await context?.close();
    context = await phoneContext(browser, DEVICES.iphoneSafari);
    page = await context.newPage();
    pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });

  afterAll(async () => {
    await context?.close();
    await receiver?.close();
  });

  const call = <T = unknown>(expression: string) => page.evaluate(expression) as Promise<T>;

  it("keeps a session within the API's limits however long the address", async () => {
    await page.goto(`${receiver.siteBase}/shop?utm_source=${'s'.repeat(300)}&q=${'x'.repeat(3000)}`);
    await call(`Signpost.trackSignup()`);
    const body = receiver.callsTo(CREATE)[0]!.json!;
    expect(String(body.landingUrl)).toHaveLength(2000);
    expect(String(body.utmSource)).toHaveLength(100);
  });

  it('records a purchase as goal purchase_<CURRENCY> in a lazily created WEB session', async () => {
    await page.goto(`${receiver.siteBase}/shop?utm_source=kakao&utm_medium=message&utm_campaign=fall`);
    const result = await call(`Signpost.trackPurchase(15000, 'krw')`);
    expect(result).toEqual({ ok: true, status: 200 });

    const [create] = receiver.callsTo(CREATE);
    expect(receiver.callsTo(CREATE)).toHaveLength(1);
    expect(create!.headers['x-app-id']).toBe('42');
    expect(create!.headers['x-mobile-app-api-key']).toBeUndefined();
    expect(create!.json).toMatchObject({
      platform: 'WEB',
      utmSource: 'kakao',
      utmMedium: 'message',
      utmCampaign: 'fall',
    });
    expect(create!.json!.landingUrl).toBe(
      `${receiver.siteBase}/shop?utm_source=kakao&utm_medium=message&utm_campaign=fall`,
    );

    const [goal] = receiver.callsTo(FUNNEL);
    expect(goal!.headers['x-app-id']).toBe('42');
    expect(goal!.json).toMatchObject({
      sessionId: 'session-1',
      stage: 'GOAL_COMPLETED',
      goalType: 'purchase_KRW',
      goalValue: 15000,
      currency: 'KRW',
    });
    expect(goal!.json!.eventId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Date.parse(String(goal!.json!.timestamp))).toBeGreaterThan(Date.now() - 60_000);

    // Same session for the next call.
    await call(`Signpost.trackSignup()`);
    expect(receiver.callsTo(CREATE)).toHaveLength(1);
    expect(receiver.callsTo(FUNNEL)[1]!.json).toMatchObject({
      sessionId: 'session-1',
      goalType: 'signup',
      goalValue: 1,
    });
    expect(receiver.callsTo(FUNNEL)[1]!.json!.currency).toBeUndefined();

    await call(`Signpost.trackConversion('newsletter', '2', 'usd')`);
    expect(receiver.callsTo(FUNNEL)[2]!.json).toMatchObject({ goalType: 'newsletter', goalValue: 2, currency: 'USD' });
    expect(pageErrors).toEqual([]);
  });

  it('sends a transactionId once, also across a page reload', async () => {
    await page.goto(`${receiver.siteBase}/shop`);
    const [first, again] = await call<unknown[]>(
      `Promise.all([Signpost.trackPurchase(9900, 'KRW', { transactionId: 'order-1' }), Signpost.trackPurchase(9900, 'KRW', { transactionId: 'order-1' })])`,
    );
    expect(first).toEqual({ ok: true, status: 200 });
    expect(again).toEqual({ ok: true, duplicate: true });

    await page.reload();
    expect(await call(`Signpost.trackPurchase(9900, 'KRW', { transactionId: 'order-1' })`)).toEqual({
      ok: true,
      duplicate: true,
    });
    expect(await call(`Signpost.trackGoal('subscription', 1, null, { transactionId: 'order-1' })`)).toEqual({
      ok: true,
      duplicate: true,
    });
    expect(await call(`Signpost.trackPurchase(5000, 'KRW', { transactionId: 'order-2' })`)).toEqual({
      ok: true,
      status: 200,
    });

    const sent = receiver.callsTo(FUNNEL).map((c) => c.json!.transactionId);
    expect(sent).toEqual(['order-1', 'order-2']);
    // The session survived the reload (sessionStorage).
    expect(receiver.callsTo(CREATE)).toHaveLength(1);
    expect(new Set(receiver.callsTo(FUNNEL).map((c) => c.json!.sessionId))).toEqual(new Set(['session-1']));
  });

  it('a transactionId whose goal was refused can be sent again', async () => {
    await page.goto(`${receiver.siteBase}/shop`);
    receiver.fail(FUNNEL, 400);
    expect(await call(`Signpost.trackPurchase(100, 'KRW', { transactionId: 'order-9' })`)).toEqual({
      ok: false,
      status: 400,
    });
    expect(await call(`Signpost.trackPurchase(100, 'KRW', { transactionId: 'order-9' })`)).toEqual({
      ok: true,
      status: 200,
    });
    expect(receiver.callsTo(FUNNEL)).toHaveLength(2);
  });

  it("goalType: explicit wins; null takes the link's (resolve by signpost_token), else init's", async () => {
    receiver.links.set('tok-1', {
      token: 'tok-1',
      goalType: 'link_goal',
      linkType: 'url',
      url: { id: 7, alias: 'fall' },
      campaign: null,
      deepLinkPath: '/p/1',
    });
    await page.goto(`${receiver.siteBase}/shop?signpost_token=tok-1`);
    await call(`Signpost.trackGoal(null, 3)`);
    await call(`Signpost.trackGoal('explicit_goal', 4)`);
    await call(`Signpost.trackGoal(null, 5)`);
    const goals = receiver.callsTo(FUNNEL).map((c) => c.json);
    expect(goals.map((g) => g!.goalType)).toEqual(['link_goal', 'explicit_goal', 'link_goal']);
    expect(goals[0]).toMatchObject({ goalValue: 3, urlId: 7 });
    // Resolved once, with the app id, and the session carries the token.
    const resolves = receiver.callsTo('/api/v1/sdk/web/deeplink/resolve');
    expect(resolves).toHaveLength(1);
    expect(resolves[0]!.query.get('token')).toBe('tok-1');
    expect(resolves[0]!.headers['x-app-id']).toBe('42');
    expect(receiver.callsTo(CREATE)[0]!.json).toMatchObject({ deepLinkToken: 'tok-1' });

    // Later pages of the same visit, without the token in the address, keep the link's goal type.
    await page.goto(`${receiver.siteBase}/shop`);
    await call(`Signpost.trackGoal(null, 6)`);
    expect(receiver.callsTo(FUNNEL)[3]!.json!.goalType).toBe('link_goal');
    expect(receiver.callsTo('/api/v1/sdk/web/deeplink/resolve')).toHaveLength(1);
  });

  it('opens a new session for a page from another click (another token), and keeps it across the visit', async () => {
    await page.goto(`${receiver.siteBase}/shop?signpost_token=click-1`);
    await call(`Signpost.trackSignup()`);
    // The same visit's next page, and a reload of the first: still the first click's session.
    await page.goto(`${receiver.siteBase}/shop`);
    await call(`Signpost.trackGoal('viewed', 1)`);
    await page.goto(`${receiver.siteBase}/shop?signpost_token=click-1`);
    await call(`Signpost.trackGoal('viewed', 2)`);
    // A new click on a tracked link within the idle time: its goals belong to its own session.
    await page.goto(`${receiver.siteBase}/shop?signpost_token=click-2`);
    await call(`Signpost.trackPurchase(20, 'USD')`);
    const creates = receiver.callsTo(CREATE).map((c) => c.json);
    expect(creates.map((c) => c!.deepLinkToken)).toEqual(['click-1', 'click-2']);
    expect(receiver.callsTo(FUNNEL).map((c) => c.json!.sessionId)).toEqual([
      'session-1',
      'session-1',
      'session-1',
      'session-2',
    ]);
  });

  it("goalType: an unknown token or none falls back to init's; with none anywhere nothing is sent", async () => {
    await page.goto(`${receiver.siteBase}/shop?signpost_token=unknown`);
    await call(`Signpost.trackGoal(null, 1)`);
    expect(receiver.callsTo(FUNNEL)[0]!.json!.goalType).toBe('init_goal');

    await context.close();
    context = await phoneContext(browser, DEVICES.iphoneSafari);
    page = await context.newPage();
    await page.goto(`${receiver.siteBase}/shop-without-goal`);
    const result = await call<{ ok: boolean; error: string }>(`Signpost.trackGoal(null, 1)`);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/goalType/);
    expect(receiver.callsTo(FUNNEL)).toHaveLength(1);
  });

  it('trackEvent goes to the event log with its properties and an idempotency id, not to the funnel', async () => {
    await page.goto(`${receiver.siteBase}/shop`);
    expect(await call(`Signpost.trackEvent('add_to_cart', { sku: 'A-1', price: 9900 })`)).toEqual({
      ok: true,
      status: 201,
    });
    expect(await call(`Signpost.trackEvent('page_view')`)).toEqual({ ok: true, status: 201 });
    const events = receiver.callsTo(EVENT);
    expect(events.map((e) => e.json)).toEqual([
      {
        sessionId: 'session-1',
        eventType: 'add_to_cart',
        properties: { sku: 'A-1', price: 9900 },
        occurredAt: expect.any(String),
        eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
      {
        sessionId: 'session-1',
        eventType: 'page_view',
        properties: {},
        occurredAt: expect.any(String),
        eventId: expect.any(String),
      },
    ]);
    expect(events[0]!.headers['x-app-id']).toBe('42');
    expect(receiver.callsTo(FUNNEL)).toHaveLength(0);
  });

  it('retries a 503 and a 429 with backoff, the same event id each time, then succeeds', async () => {
    await page.goto(`${receiver.siteBase}/shop`);
    receiver.fail(EVENT, 503, 429);
    const started = Date.now();
    expect(await call(`Signpost.trackEvent('checkout', { step: 2 })`)).toEqual({ ok: true, status: 201 });
    const attempts = receiver.callsTo(EVENT);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.json!.eventId)).size).toBe(1);
    // The 429 carried Retry-After: 1.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);

    receiver.fail(CREATE, 502);
    receiver.fail(FUNNEL, 500);
    await call(`sessionStorage.clear()`);
    expect(await call(`Signpost.trackPurchase(1, 'KRW')`)).toEqual({ ok: true, status: 200 });
    expect(receiver.callsTo(CREATE)).toHaveLength(3);
    const goals = receiver.callsTo(FUNNEL);
    expect(goals).toHaveLength(2);
    expect(goals[0]!.json!.eventId).toBe(goals[1]!.json!.eventId);
  });

  it('does not retry a 403 (add-on off) or another 4xx', async () => {
    await page.goto(`${receiver.siteBase}/shop`);
    receiver.fail(FUNNEL, 403, 403, 403);
    expect(await call(`Signpost.trackPurchase(1000, 'KRW')`)).toEqual({ ok: false, status: 403 });
    receiver.fail(EVENT, 422, 422);
    expect(await call(`Signpost.trackEvent('x', {})`)).toEqual({ ok: false, status: 422 });
    await page.waitForTimeout(1500);
    expect(receiver.callsTo(FUNNEL)).toHaveLength(1);
    expect(receiver.callsTo(EVENT)).toHaveLength(1);
  });

  it('never lets an error reach the host page, with the service down or nonsense arguments', async () => {
    await page.goto(`${receiver.siteBase}/shop`);
    receiver.down = true;
    const results = await call<{ ok: boolean }[]>(`Promise.all([
      Signpost.trackPurchase(1000, 'KRW', { transactionId: 'down-1' }),
      Signpost.trackEvent('view', { a: 1 }),
      Signpost.trackGoal(null, 1),
      Signpost.trackPurchase('not a number', 'KRW'),
      Signpost.trackPurchase(1, 'won'),
      Signpost.trackPurchase(1, null),
      Signpost.trackConversion('', 1),
      Signpost.trackEvent(null),
      Signpost.init(undefined) && Signpost.trackSignup(),
    ])`);
    expect(results.every((r) => r.ok === false)).toBe(true);
    // Retried before giving up, a bounded number of times (5 attempts; Chromium itself may repeat a
    // request once when a reused connection is reset).
    expect(receiver.callsTo(CREATE).length).toBeGreaterThan(1);
    expect(receiver.callsTo(CREATE).length).toBeLessThanOrEqual(10);
    expect(pageErrors).toEqual([]);
    expect(await call(`window.__rejections || []`)).toEqual([]);

    // The failed purchase was not remembered: once the service is back it goes through.
    receiver.down = false;
    expect(await call(`Signpost.trackPurchase(1000, 'KRW', { transactionId: 'down-1' })`)).toEqual({
      ok: true,
      status: 200,
    });

    await page.goto(`${receiver.siteBase}/shop-no-init`);
    const before = await call<{ ok: boolean; error: string }>(`Signpost.trackEvent('x', {})`);
    expect(before).toEqual({ ok: false, error: expect.stringMatching(/init/) });
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
