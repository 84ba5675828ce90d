// Deferred matching of an Android phone whose Chrome sends the reduced user agent (`Android 10; K`:
// no model, a version that is always 10). The landing page asks for the client hints (Accept-CH);
// the model and full version then come with the browser's requests (Sec-CH-UA-Model,
// Sec-CH-UA-Platform-Version) or from the page's own navigator.userAgentData, and the app's first
// launch (Build.MODEL, Build.VERSION.RELEASE) is matched on them. Over a real port: the headers as a
// browser sends them, and Chromium dressed as a Galaxy S24 Ultra with a reduced user agent.
import { rawRequest } from './support/raw-http.js';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { createApps, createDeepLink, mobile, query, type Apps, type Org } from './support/deep-links.js';
import { launchChromium } from './support/chromium.js';
import { serviceForFile } from './support/service.js';

// A name under .localhost: Chromium takes its plain HTTP for a secure context, as the real (https)
// host is, so the page has navigator.userAgentData and the browser sends the client hints.
const HOST = 'sgnp.localhost';
const BASE = `http://${HOST}`;
/** Chrome on Android since the user-agent reduction: every phone is a `K` on Android 10. */
const REDUCED =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
/** The app's first launch on the phone: its own user agent, Build.MODEL and Build.VERSION.RELEASE. */
const LAUNCH = {
  userAgent: 'Dalvik/2.1.0 (Linux; U; Android 14; SM-S928N Build/UP1A.231005.007)',
  deviceModel: 'SM-S928N',
  osVersion: '14',
  resolution: '1440x3120',
};

let port: number;
let org: Org;
let apps: Apps;

// Each test's phone has its own address (X-Forwarded-For from the test, the proxy in front trusted).
const svc = serviceForFile({ PUBLIC_BASE_URL: BASE, TRUST_PROXY: '127.0.0.1' });

beforeAll(async () => {
  await svc.container.app.listen({ port: 0, host: '127.0.0.1' });
  port = (svc.container.app.server.address() as AddressInfo).port;
  org = await svc.createOrganization('Hints Shop');
  apps = await createApps(svc, org);
});

/** A request over the service's port, headers exactly as given (fetch may not send `Sec-` ones). */
const send = (method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: unknown) =>
  rawRequest(port, method, path, { host: HOST, ...headers }, body);

const tokenOf = (html: string) => /<meta name="signpost:deeplink-token" content="([^"]+)">/.exec(html)?.[1];
const tokenRow = (token: string) => svc.container.deepLinks.tokens.get(token);

/** The app's first launch, from the address the click came from. */
async function firstLaunch(ip: string, extra: Record<string, string> = {}) {
  const res = await mobile(
    svc,
    apps.android,
    'GET',
    `/deeplink/resolve-fingerprint?${query({ ...LAUNCH, ipAddress: ip, ...extra })}`,
    undefined,
    { ip },
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    matched: boolean;
    matchType?: string;
    signals?: string[];
    deepLinkPath?: string;
    reason?: string;
  };
}

describe(`client hints over HTTP (${backend})`, () => {
  it('the landing page asks for the model and version; a click that sends them keeps them', async () => {
    const link = await createDeepLink(svc, org, apps);
    const ip = '198.51.100.11';
    const bare = await send('GET', `/${link.shortCode}`, { 'user-agent': REDUCED, 'x-forwarded-for': ip });
    expect(bare.status).toBe(200);
    expect(bare.headers['accept-ch']).toBe('Sec-CH-UA-Model, Sec-CH-UA-Platform-Version');
    expect(await tokenRow(tokenOf(bare.body)!)).toMatchObject({ os: 'ANDROID', osVersion: null, deviceModel: null });

    // The next click of that browser: Chrome sends the hints it was asked for, as structured-field strings.
    const hinted = await send('GET', `/${link.shortCode}`, {
      'user-agent': REDUCED,
      'x-forwarded-for': ip,
      'sec-ch-ua-mobile': '?1',
      'sec-ch-ua-platform': '"Android"',
      'sec-ch-ua-model': '"SM-S928N"',
      'sec-ch-ua-platform-version': '"14.0.0"',
    });
    const token = tokenOf(hinted.body)!;
    expect(await tokenRow(token)).toMatchObject({ os: 'ANDROID', osVersion: '14', deviceModel: 'SM-S928N' });
    // Both clicks came from here; the one whose model and version agree is the launch's.
    const answer = await firstLaunch(ip);
    expect(answer).toMatchObject({ matched: true, matchType: 'fingerprint', deepLinkPath: 'product/42' });
    expect(answer.signals).toEqual(expect.arrayContaining(['ip', 'osVersion', 'deviceModel']));
    expect((await tokenRow(token))!.consumedAt).not.toBeNull();
    expect((await tokenRow(tokenOf(bare.body)!))!.consumedAt).toBeNull();
  });

  it("update-fingerprint takes the page's hints, else the headers of its own request; another phone is ruled out", async () => {
    const link = await createDeepLink(svc, org, apps);
    const ip = '198.51.100.12';
    const click = async () =>
      tokenOf((await send('GET', `/${link.shortCode}`, { 'user-agent': REDUCED, 'x-forwarded-for': ip })).body)!;
    const fingerprint = (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      send(
        'POST',
        '/api/v1/sdk/web/deeplink/update-fingerprint',
        { origin: BASE, 'x-forwarded-for': ip, ...headers },
        { token, appId: apps.android.id, userAgent: REDUCED, resolution: '384x832', pixelRatio: 3.75, ...body },
      );
    // A Galaxy A35 on Android 15: the page read its hints.
    const fromPage = await click();
    expect(
      (
        await fingerprint(fromPage, {
          deviceModel: 'SM-A356N',
          platformVersion: '15.0.0',
          resolution: '384x854',
          pixelRatio: 2.8125,
        })
      ).status,
    ).toBe(200);
    expect(await tokenRow(fromPage)).toMatchObject({ osVersion: '15', deviceModel: 'SM-A356N', resolution: '384x854' });

    // A Galaxy S24 Ultra on Android 14 whose page could not read them: its request carried them.
    const fromHeaders = await click();
    const res = await fingerprint(
      fromHeaders,
      {},
      { 'sec-ch-ua-model': '"SM-S928N"', 'sec-ch-ua-platform-version': '"14.0.0"' },
    );
    expect(res.status, res.body).toBe(200);
    expect(await tokenRow(fromHeaders)).toMatchObject({ osVersion: '14', deviceModel: 'SM-S928N' });

    // Behind the one address, each phone's first launch takes its own click: the A35's is no
    // candidate for the S24 Ultra (another model), and the other way round.
    expect(await firstLaunch(ip)).toMatchObject({ matched: true, matchType: 'fingerprint' });
    expect((await tokenRow(fromHeaders))!.consumedAt).not.toBeNull();
    expect((await tokenRow(fromPage))!.consumedAt).toBeNull();
    const a35 = await firstLaunch(ip, {
      deviceModel: 'SM-A356N',
      osVersion: '15',
      userAgent: 'Dalvik/2.1.0 (Linux; U; Android 15; SM-A356N Build/AP3A.240905.015)',
      resolution: '1080x2402',
    });
    expect(a35).toMatchObject({ matched: true, matchType: 'fingerprint' });
    expect(a35.signals).toEqual(expect.arrayContaining(['deviceModel', 'osVersion', 'resolution']));
    expect((await tokenRow(fromPage))!.consumedAt).not.toBeNull();
  });
});

describe('client hints in Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium([`--host-resolver-rules=MAP ${HOST} 127.0.0.1:${port}`]);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('the landing page posts the model and full version a reduced user agent hides, and the first launch matches on them', async () => {
    const link = await createDeepLink(svc, org, apps);
    const ip = '198.51.100.13';
    const context = await browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': ip },
      viewport: { width: 384, height: 832 },
      deviceScaleFactor: 3.75,
      isMobile: true,
      hasTouch: true,
      locale: 'ko-KR',
      timezoneId: 'Asia/Seoul',
    });
    // Nothing leaves the test machine: the app attempt and the store go nowhere.
    await context.route(/^https:\/\//, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Store</title>' }),
    );
    const page = await context.newPage();
    // What Chrome on a Galaxy S24 Ultra says: the reduced agent, and the real device in userAgentData.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setUserAgentOverride', {
      userAgent: REDUCED,
      userAgentMetadata: {
        brands: [
          { brand: 'Chromium', version: '124' },
          { brand: 'Google Chrome', version: '124' },
        ],
        platform: 'Android',
        platformVersion: '14.0.0',
        architecture: '',
        model: 'SM-S928N',
        mobile: true,
      },
    });
    const posted = page.waitForRequest(
      (r) => r.url().endsWith('/deeplink/update-fingerprint') && r.method() === 'POST',
    );
    await page.goto(`${BASE}/${link.shortCode}`);
    const token = await page.locator('meta[name="signpost:deeplink-token"]').getAttribute('content');
    const fingerprint = await posted;
    expect(fingerprint.postDataJSON()).toMatchObject({
      token,
      deviceModel: 'SM-S928N',
      platformVersion: '14.0.0',
      resolution: '384x832',
    });
    expect((await fingerprint.response())?.status()).toBe(200);
    expect(await tokenRow(token!)).toMatchObject({
      os: 'ANDROID',
      osVersion: '14',
      deviceModel: 'SM-S928N',
      resolution: '384x832',
    });
    await context.close();

    const answer = await firstLaunch(ip, { timeZone: 'Asia/Seoul', language: 'ko-KR' });
    expect(answer).toMatchObject({ matched: true, matchType: 'fingerprint' });
    expect(answer.signals).toEqual(expect.arrayContaining(['deviceModel', 'osVersion', 'resolution', 'timeZone']));
    expect((await tokenRow(token!))!.consumedAt).not.toBeNull();
  });
});
