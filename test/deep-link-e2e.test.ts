// Deep links end to end, as a person on a phone lives them: the real service on a real port (the
// platform host mapped to it inside Chromium), an organization with an iOS and an Android app, a
// short link to both. The phone opens the short link, sees the landing page, the web SDK posts the
// fingerprint, tries the app, beacons the store visit and goes to the store; then the app, at its
// first launch, resolves the deferred deep link: by fingerprint on iOS (once), by the Install
// Referrer token on Android. The funnel reaches ClickHouse. Then the shop's own site, with the web
// SDK: trackPurchase and trackEvent land in the user-journey funnel and event log, once each.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { DEVICES, phoneContext, type Device } from './support/mobile-browser.js';
import { eventually, serviceForFile } from './support/service.js';

const HOST = 'sgnp.example';
const BASE = `http://${HOST}`;
/** The customer's own web shop, on its own origin. */
const SHOP_HOST = 'shop.example';
const APP_STORE = 'https://apps.apple.com/app/id1234567890';
const PLAY_STORE = 'https://play.google.com/store/apps/details?id=com.example.shop&hl=ko';

let browser: Browser;
let org: { id: number; apiKey: string };
let ios: MobileApp;
let android: MobileApp;
let link: { id: number; shortCode: string; shortUrl: string };
let shop: http.Server;

interface MobileApp {
  id: number;
  apiKey: string;
  path: string;
}

const svc = serviceForFile({ PUBLIC_BASE_URL: BASE });

beforeAll(async () => {
  await svc.container.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = svc.container.app.server.address() as AddressInfo;
  // The shop's page embeds the SDK from the service, as a customer's site would.
  shop = http.createServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html lang="ko"><title>Shop</title><h1>Product 42</h1>` +
          `<script src="${BASE}/sdk/web/1.0.0/signpost.js"></script>` +
          `<script>Signpost.init({ appId: Number(new URLSearchParams(location.search).get('app')), apiBase: '${BASE}' });</script>`,
      );
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  const shopPort = (shop.address() as AddressInfo).port;
  // The phone reaches both hosts by name, as in production; they land on this machine.
  browser = await launchChromium([
    `--host-resolver-rules=MAP ${HOST} 127.0.0.1:${port}, MAP ${SHOP_HOST} 127.0.0.1:${shopPort}`,
  ]);

  org = await svc.createOrganization('Deep Link Shop', 'FREE');
  const app = async (body: Record<string, unknown>) => {
    const res = await svc.service('POST', '/mobile-apps', org.apiKey, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as MobileApp;
  };
  ios = await app({
    platform: 'IOS',
    appName: 'Shop for iPhone',
    bundleId: 'com.example.shop',
    teamId: 'ABCDE12345',
    scheme: 'shop://',
    storeUrl: APP_STORE,
  });
  android = await app({
    platform: 'ANDROID',
    appName: 'Shop for Android',
    bundleId: 'com.example.shop',
    scheme: 'shop://',
    storeUrl: PLAY_STORE,
  });
  const res = await svc.service('POST', '/urls', org.apiKey, {
    url: 'https://shop.example/product/42',
    iosAppId: ios.id,
    androidAppId: android.id,
    iosDeepLinkPath: 'product/42',
    androidDeepLinkPath: 'product/42',
    goalType: 'purchase',
  });
  expect(res.statusCode, res.body).toBe(201);
  link = res.json() as typeof link;
});

afterAll(async () => {
  await browser?.close();
  shop?.close();
});

interface Visit {
  context: BrowserContext;
  page: Page;
  navigations: string[];
  token: string;
  fingerprint: Promise<Record<string, unknown>>;
  storeVisit: Promise<string>;
}

/** Opens the short link on a phone; the stores answer a stand-in page (no network here). */
async function openOnPhone(device: Device, url: string): Promise<Visit> {
  const context = await phoneContext(browser, device);
  await context.route(/^https:\/\/(apps\.apple\.com|play\.google\.com)\//, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><html lang="en"><title>Store</title><h1>Store</h1>',
    }),
  );
  const page = await context.newPage();
  const navigations: string[] = [];
  const cdp = await context.newCDPSession(page);
  await cdp.send('Page.enable');
  cdp.on('Page.frameRequestedNavigation', (event) => navigations.push(event.url));
  const fingerprint = page
    .waitForRequest((r) => r.url().endsWith('/update-fingerprint') && r.method() === 'POST')
    .then(async (r) => {
      const res = await r.response();
      expect(res?.status()).toBe(200);
      return r.postDataJSON() as Record<string, unknown>;
    });
  // A beacon's answer is not the page's to see; what it did shows in the funnel (STORE_VISITED).
  const storeVisit = page.waitForRequest((r) => r.url().endsWith('/track-store-visit')).then((r) => r.postData() ?? '');
  // The page's timers on Playwright's clock (time flows as usual): afterAppAttempt() moves it on.
  await page.clock.install();
  await page.goto(url);
  const token = await page.locator('meta[name="signpost:deeplink-token"]').getAttribute('content');
  expect(token).toBeTruthy();
  return { context, page, navigations, token: token!, fingerprint, storeVisit };
}

/**
 * Once the page has tried the app, moves its clock past its wait for the app (2 s), so it goes on to
 * the store without the test waiting that long.
 */
async function afterAppAttempt({ page, navigations }: Visit): Promise<void> {
  while (navigations.length === 0) await page.waitForTimeout(20);
  await page.clock.runFor(3000);
}

async function arrivesAt(page: Page, prefix: string, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!page.url().startsWith(prefix)) {
    if (Date.now() > deadline) throw new Error(`still at ${page.url()}, expected ${prefix}`);
    await page.waitForTimeout(50);
  }
}

function resolveFingerprint(app: MobileApp, query: Record<string, string>) {
  return svc.inject({
    method: 'GET',
    url: `/api/v1/sdk/mobile/deeplink/resolve-fingerprint?${new URLSearchParams(query)}`,
    headers: { 'x-app-id': String(app.id), 'x-mobile-app-api-key': app.apiKey },
    remoteAddress: '198.51.100.7',
  });
}

describe('iPhone', () => {
  it('landing page, fingerprint, app attempt, store with the beacon; then the first launch matches once', async () => {
    const visit = await openOnPhone(DEVICES.iphoneSafari, `${BASE}/${link.shortCode}`);
    const { page, token } = visit;
    expect(await page.locator('h1').innerText()).toBe('Shop for iPhone');
    expect(await page.getByRole('link', { name: '앱에서 열기' }).isVisible()).toBe(true);

    expect(await visit.fingerprint).toMatchObject({
      token,
      resolution: '390x844',
      appId: ios.id,
      userAgent: DEVICES.iphoneSafari.userAgent,
    });
    await afterAppAttempt(visit);
    await arrivesAt(page, APP_STORE);
    expect(JSON.parse(await visit.storeVisit)).toEqual({ token, isCampaign: false });
    expect(visit.navigations).toEqual([`shop://product/42?signpost_token=${token}`, APP_STORE]);
    await visit.context.close();

    // The app's first launch, from the same phone: same connection IP, user agent and screen.
    const first = await resolveFingerprint(ios, {
      userAgent: DEVICES.iphoneSafari.userAgent,
      ipAddress: '127.0.0.1',
      resolution: '390x844',
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      matched: true,
      matchType: 'fingerprint',
      token,
      deepLinkPath: 'product/42',
      originalUrl: 'https://shop.example/product/42',
      url: { id: link.id },
    });
    expect(first.json().confidence).toBeGreaterThan(0);
    const second = await resolveFingerprint(ios, {
      userAgent: DEVICES.iphoneSafari.userAgent,
      ipAddress: '127.0.0.1',
      resolution: '390x844',
    });
    expect(second.json()).toEqual({ matched: false, reason: 'already_consumed' });

    // The funnel of this click reached ClickHouse: the click and the store visit.
    const stages = await eventually(
      async () => {
        const rows = await svc.clickhouse<{ stage: string }>(
          'SELECT stage FROM deeplink_funnel WHERE session_id = {token:String} ORDER BY ts',
          { token },
        );
        const names = rows.map((r) => r.stage);
        return names.includes('STORE_VISITED') && names.includes('CLICKED') ? names : undefined;
      },
      15_000,
      'CLICKED and STORE_VISITED in deeplink_funnel',
    );
    expect(stages).toEqual(expect.arrayContaining(['CLICKED', 'STORE_VISITED']));
  });
});

describe('Android', () => {
  it('the store address carries the token, and the Install Referrer matches deterministically', async () => {
    const visit = await openOnPhone(DEVICES.androidChrome, `${BASE}/${link.shortCode}`);
    const { page, token } = visit;
    expect(await page.locator('h1').innerText()).toBe('Shop for Android');
    expect(await visit.fingerprint).toMatchObject({ token, resolution: '412x915', appId: android.id });

    await afterAppAttempt(visit);
    await arrivesAt(page, 'https://play.google.com/');
    const store = new URL(page.url());
    expect(store.searchParams.get('id')).toBe('com.example.shop');
    const referrer = store.searchParams.get('referrer');
    expect(referrer).toBe(`signpost_token=${token}`);
    expect(JSON.parse(await visit.storeVisit)).toEqual({ token, isCampaign: false });
    expect(visit.navigations[0]).toMatch(
      new RegExp(`^intent://product/42\\?signpost_token=${token}#Intent;scheme=shop;package=com\\.example\\.shop;`),
    );
    expect(visit.navigations[1]).toBe(page.url());
    await visit.context.close();

    // Another network and no matching fingerprint: only the referrer can match.
    const res = await resolveFingerprint(android, {
      userAgent: 'Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/UQ1A.240205.004)',
      ipAddress: '192.0.2.99',
      referrer: referrer!,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      matched: true,
      matchType: 'referrer',
      confidence: 100,
      token,
      deepLinkPath: 'product/42',
    });
  });
});

describe("the shop's site with the web SDK (user journey)", () => {
  const journey = (app: MobileApp, url: string) =>
    svc.inject({
      method: 'GET',
      url: `/api/v1/cross-platform${url}`,
      headers: { 'x-app-id': String(app.id), 'x-mobile-app-api-key': app.apiKey },
    });

  it("trackPurchase lands in the funnel once per transactionId, trackEvent in the event log; the link's goalType applies to trackGoal(null)", async () => {
    const grant = await svc.admin('PUT', `/organizations/${org.id}/add-ons`, { userJourney: true });
    expect(grant.statusCode, grant.body).toBe(200);
    // A click from the phone gives the token the app (or the landing page) hands to the site.
    const landing = await svc.inject({
      method: 'GET',
      url: `/${link.shortCode}`,
      headers: { host: HOST, 'user-agent': DEVICES.iphoneSafari.userAgent },
    });
    const token = /name="signpost:deeplink-token" content="([^"]+)"/.exec(landing.body)?.[1];
    expect(token, landing.body.slice(0, 300)).toBeTruthy();

    const context = await phoneContext(browser, DEVICES.iphoneSafari);
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`http://${SHOP_HOST}/product/42?app=${ios.id}&signpost_token=${token}&utm_source=kakao`);
      const results = (await page.evaluate(`(async () => [
        await Signpost.trackPurchase(39000, 'krw', { transactionId: 'order-1001' }),
        await Signpost.trackPurchase(39000, 'KRW', { transactionId: 'order-1001' }),
        await Signpost.trackEvent('add_to_cart', { sku: 'A-1', price: 39000 }),
        await Signpost.trackGoal(null, 1),
      ])()`)) as { ok: boolean; duplicate?: boolean }[];
      expect(results.map((r) => r.ok)).toEqual([true, true, true, true]);
      expect(results[1]!.duplicate).toBe(true);
      await page.reload();
      expect(await page.evaluate(`Signpost.trackPurchase(39000, 'KRW', { transactionId: 'order-1001' })`)).toEqual({
        ok: true,
        duplicate: true,
      });
      const sessionId = (await page.evaluate(`JSON.parse(sessionStorage.getItem('signpost.session')).id`)) as string;
      expect(errors).toEqual([]);

      const session = await journey(ios, `/session/${sessionId}`);
      expect(session.statusCode, session.body).toBe(200);
      expect(session.json()).toMatchObject({ sessionId, platform: 'WEB', deepLinkToken: token, utmSource: 'kakao' });

      const events = await eventually(
        async () => {
          const res = await journey(ios, `/session/${sessionId}/events`);
          const body = res.json() as { content: { eventType: string; properties: Record<string, unknown> }[] };
          return body.content?.length ? body.content : undefined;
        },
        15_000,
        'the event in the event log',
      );
      expect(events).toEqual([
        expect.objectContaining({ eventType: 'add_to_cart', properties: { sku: 'A-1', price: 39000 } }),
      ]);

      const goals = await eventually(
        async () => {
          const rows = await svc.clickhouse<{
            goal_type: string;
            goal_value: number;
            currency: string;
            transaction_id: string;
          }>(
            "SELECT goal_type, goal_value, currency, transaction_id FROM journey_funnel FINAL WHERE session_id = {s:String} AND stage = 'GOAL_COMPLETED' ORDER BY ts",
            { s: sessionId },
          );
          return rows.length >= 2 ? rows : undefined;
        },
        15_000,
        'the goals in journey_funnel',
      );
      expect(goals).toEqual([
        { goal_type: 'purchase_KRW', goal_value: 39000, currency: 'KRW', transaction_id: 'order-1001' },
        { goal_type: 'purchase', goal_value: 1, currency: '', transaction_id: '' },
      ]);

      // Another browser (nothing remembered locally): the server recognises the transaction.
      const elsewhere = await (await phoneContext(browser, DEVICES.androidChrome)).newPage();
      await elsewhere.goto(`http://${SHOP_HOST}/product/42?app=${ios.id}`);
      expect(await elsewhere.evaluate(`Signpost.trackPurchase(39000, 'KRW', { transactionId: 'order-1001' })`)).toEqual(
        { ok: true, status: 200, duplicate: true },
      );
      await elsewhere.context().close();
    } finally {
      await context.close();
    }
  });

  it('without the add-on the SDK is told 403 once, and the page sees no error', async () => {
    const other = await svc.createOrganization('No Journey Shop', 'FREE');
    const res = await svc.service('POST', '/mobile-apps', other.apiKey, {
      platform: 'IOS',
      appName: 'Other',
      bundleId: 'com.example.other',
      teamId: 'ABCDE12345',
      scheme: 'other://',
      storeUrl: APP_STORE,
    });
    expect(res.statusCode, res.body).toBe(201);
    const app = res.json() as MobileApp;
    const context = await phoneContext(browser, DEVICES.iphoneSafari);
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      let creates = 0;
      page.on('request', (r) => {
        if (r.url().endsWith('/session/create') && r.method() === 'POST') creates++;
      });
      await page.goto(`http://${SHOP_HOST}/product/42?app=${app.id}`);
      expect(await page.evaluate(`Signpost.trackEvent('view', {})`)).toEqual({
        ok: false,
        status: 403,
        error: 'session not created',
      });
      expect(creates).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
