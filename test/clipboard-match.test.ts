// The iOS clipboard match end to end: an organization turns clipboardMatch on for its iPhone app;
// the phone opens the short link, taps "앱 설치하기" on the landing page, which copies a short code
// for the click, says so and goes to the App Store; the app's first launch pastes the code into
// resolve-fingerprint and gets the click, deterministically and once. Another app cannot take the
// code, and an app that has not turned the match on gets the landing page as before.
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/console-browser.js';
import { launchChromium } from './support/chromium.js';
import { DEVICES, phoneContext } from './support/mobile-browser.js';
import { serviceForFile } from './support/service.js';

// A name under .localhost: Chromium takes its plain HTTP for a secure context, as the real (https)
// host is, so the page has the Clipboard API.
const HOST = 'sgnp.localhost';
const BASE = `http://${HOST}`;
const APP_STORE = 'https://apps.apple.com/app/id1234567890';
/** Where the app launches from: nothing a fingerprint could tie to the click. */
/** The page may try the app first (about 2 s) before it settles. */
const WAIT = { timeout: 10_000 };
const LAUNCH = { userAgent: 'Shop/1.0 CFNetwork/1490.0.4 Darwin/23.2.0', ipAddress: '192.0.2.44', osVersion: '17.4' };

let browser: Browser;
let withClipboard: MobileApp;
let otherApp: MobileApp;
let plainApp: MobileApp;
let apiKey: string;
let clipboardLink: string;
let plainLink: string;

interface MobileApp {
  id: number;
  apiKey: string;
  clipboardMatch: boolean;
}

const svc = serviceForFile({ PUBLIC_BASE_URL: BASE });

beforeAll(async () => {
  await svc.container.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = svc.container.app.server.address() as AddressInfo;
  browser = await launchChromium([`--host-resolver-rules=MAP ${HOST} 127.0.0.1:${port}`]);

  const org = await svc.createOrganization('Clipboard Shop', 'FREE');
  const app = async (body: Record<string, unknown>) => {
    const res = await svc.service('POST', '/mobile-apps', org.apiKey, {
      platform: 'IOS',
      teamId: 'ABCDE12345',
      storeUrl: APP_STORE,
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as MobileApp;
  };
  // Apps opened by universal links alone (no scheme): the page has no app to try, so it settles at
  // once. (After a page tries an unknown scheme, Debian's Chromium intermittently drops the next taps.)
  withClipboard = await app({ appName: 'Shop for iPhone', bundleId: 'com.example.shop', clipboardMatch: true });
  otherApp = await app({ appName: 'Another app', bundleId: 'com.example.other', clipboardMatch: true });
  apiKey = org.apiKey;
  plainApp = await app({ appName: 'Plain app', bundleId: 'com.example.plain', scheme: 'plain://' });
  expect([withClipboard.clipboardMatch, plainApp.clipboardMatch]).toEqual([true, false]);
  const link = async (iosAppId: number) => {
    const res = await svc.service('POST', '/urls', org.apiKey, {
      url: 'https://shop.example/product/42',
      iosAppId,
      iosDeepLinkPath: 'product/42',
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { shortUrl: string }).shortUrl;
  };
  clipboardLink = await link(withClipboard.id);
  plainLink = await link(plainApp.id);
});

afterAll(async () => {
  await browser?.close();
});

async function openOnIphone(url: string): Promise<{ context: BrowserContext; page: Page; token: string }> {
  const context = await phoneContext(browser, DEVICES.iphoneSafari);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await context.route(/^https:\/\/apps\.apple\.com\//, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><html lang="en"><title>App Store</title><h1>App Store</h1>',
    }),
  );
  const page = await context.newPage();
  await page.goto(url);
  const token = await page.locator('meta[name="signpost:deeplink-token"]').getAttribute('content');
  expect(token).toBeTruthy();
  return { context, page, token: token! };
}

/** Taps the store button of the landing page and answers what landed on the clipboard. */
async function copyFromLanding(): Promise<{ token: string; copied: string }> {
  const { context, page, token } = await openOnIphone(clipboardLink);
  try {
    // No app to open: the page stays and points at the button instead of leaving for the store.
    await expect.poll(() => page.getByRole('status').innerText(), WAIT).toBe('‘앱 설치하기’를 눌러 계속하세요.');
    const storeVisit = page.waitForRequest((r) => r.url().endsWith('/track-store-visit'));
    await page.getByRole('link', { name: '앱 설치하기' }).click();
    await expect
      .poll(() => page.getByRole('status').innerText(), WAIT)
      .toBe('코드를 복사했어요. App Store로 이동합니다…');
    expect(JSON.parse((await storeVisit).postData() ?? '')).toEqual({ token, isCampaign: false });
    await expect.poll(() => page.url(), WAIT).toBe(APP_STORE);
    const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
    return { token, copied };
  } finally {
    await context.close();
  }
}

function resolveFirstLaunch(app: MobileApp, query: Record<string, string>) {
  return svc.inject({
    method: 'GET',
    url: `/api/v1/sdk/mobile/deeplink/resolve-fingerprint?${new URLSearchParams({ ...LAUNCH, ...query })}`,
    headers: { 'x-app-id': String(app.id), 'x-mobile-app-api-key': app.apiKey },
    remoteAddress: LAUNCH.ipAddress,
  });
}

describe('clipboard match (app opted in)', () => {
  it('the store button copies a short code and goes to the App Store; the first launch pasting it matches by clipboard, confidence 100, once', async () => {
    const { token, copied } = await copyFromLanding();
    expect(copied).toMatch(/^sp:[0-9A-Za-z]{12}$/);

    const first = await resolveFirstLaunch(withClipboard, { clipboardToken: copied });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      matched: true,
      matchType: 'clipboard',
      confidence: 100,
      signals: ['clipboard'],
      token,
      deepLinkPath: 'product/42',
      originalUrl: 'https://shop.example/product/42',
    });
    const again = await resolveFirstLaunch(withClipboard, { clipboardToken: copied });
    expect(again.json()).toEqual({ matched: false, reason: 'already_consumed' });
  });

  it('another app cannot take the code (no match, nothing consumed); the app it was copied for still can', async () => {
    const { token, copied } = await copyFromLanding();
    const other = await resolveFirstLaunch(otherApp, { clipboardToken: copied });
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json()).toEqual({ matched: false, reason: 'no_candidate' });
    const own = await resolveFirstLaunch(withClipboard, { clipboardToken: ` ${copied} ` });
    expect(own.json()).toMatchObject({ matched: true, matchType: 'clipboard', token });
  });

  it('a pasted value that is no code of ours falls through to fingerprinting', async () => {
    const res = await resolveFirstLaunch(withClipboard, { clipboardToken: 'sp:AAAAAAAAAAAA' });
    expect(res.json()).toEqual({ matched: false, reason: 'no_candidate' });
    const text = await resolveFirstLaunch(withClipboard, { clipboardToken: 'shopping list: milk' });
    expect(text.json()).toEqual({ matched: false, reason: 'no_candidate' });
  });

  it('the landing page with the copy note passes axe', async () => {
    const { context, page } = await openOnIphone(clipboardLink);
    try {
      await expect.poll(() => page.getByRole('status').innerText(), WAIT).toBe('‘앱 설치하기’를 눌러 계속하세요.');
      const store = page.getByRole('link', { name: '앱 설치하기' });
      expect(await store.getAttribute('aria-describedby')).toBe('signpost-clipboard');
      expect(await page.locator('#signpost-clipboard').innerText()).toContain('짧은 코드가 클립보드에 복사돼요');
      await expectAccessible(page, 'landing page with the clipboard match');
    } finally {
      await context.close();
    }
  });
});

describe('clipboard match off (the default)', () => {
  it('no copy note, no code: the page tries the app, then goes to the App Store on its own as before', async () => {
    const { context, page } = await openOnIphone(plainLink);
    try {
      expect(await page.locator('#signpost-clipboard').count()).toBe(0);
      const config = JSON.parse((await page.locator('#signpost-landing').textContent()) ?? '{}') as {
        clipboardToken?: unknown;
      };
      expect(config.clipboardToken).toBeNull();
      await expect.poll(() => page.url(), WAIT).toBe(APP_STORE);
    } finally {
      await context.close();
    }
  });
});

describe('turning the match on and off', () => {
  /** The landing page a phone gets for the plain app's link, as the redirect answers it. */
  const landingOfPlainLink = async () => {
    const res = await svc.inject({
      method: 'GET',
      url: new URL(plainLink).pathname,
      headers: { host: HOST, 'user-agent': DEVICES.iphoneSafari.userAgent },
    });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it("applies to the app's existing links from the next click", async () => {
    expect(await landingOfPlainLink()).not.toContain('id="signpost-clipboard"');
    const on = await svc.service('PUT', `/mobile-apps/${plainApp.id}`, apiKey, { clipboardMatch: true });
    expect(on.json()).toMatchObject({ clipboardMatch: true });
    const page = await landingOfPlainLink();
    expect(page).toContain('id="signpost-clipboard"');
    expect(page).toMatch(/"clipboardToken":"sp:[0-9A-Za-z]{12}"/);
    await svc.service('PUT', `/mobile-apps/${plainApp.id}`, apiKey, { clipboardMatch: false });
    expect(await landingOfPlainLink()).not.toContain('id="signpost-clipboard"');
  });
});
