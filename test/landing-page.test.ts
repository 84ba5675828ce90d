// The deep-link landing page in a real browser, rendered from a LandingPageInput exactly as the
// redirect renders it, on a real HTTP server that answers the Web SDK paths and records them:
// what a person sees, the fingerprint, the app attempt, the store-visit beacon and the move to the
// store (or the web), the in-app browser escapes, and accessibility basics.
// The page runs on Playwright's clock: time flows as usual, but where a test waits out the page's
// timers (the app attempt's wait, the in-app escapes) it moves the page's clock on instead of
// waiting, so the same timers fire, in the same order, without real seconds passing.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { landingPage, type LandingPageInput } from '../src/api/redirect/landing-page.js';
import { launchChromium } from './support/chromium.js';
import { DEVICES, phoneContext, type Device } from './support/mobile-browser.js';
import { startReceiver, type Receiver } from './support/sdk-receiver.js';

const FINGERPRINT = '/api/v1/sdk/web/deeplink/update-fingerprint';
const CAMPAIGN_FINGERPRINT = '/api/v1/sdk/web/campaign-deep-link/update-fingerprint';
const STORE_VISIT = '/api/v1/sdk/web/deeplink/track-store-visit';
const DEBUG = '/api/v1/sdk/web/deeplink/debug-scheme';
/** Longer than the page waits for the app (src/web-sdk/landing.ts, 2 s) and for the fingerprint (1 s). */
const PAST_THE_APP_WAIT_MS = 3000;

let browser: Browser;
let receiver: Receiver;
let context: BrowserContext | undefined;

beforeAll(async () => {
  browser = await launchChromium();
  receiver = await startReceiver();
  receiver.page('/store/ios', '<!doctype html><html lang="en"><title>App Store</title><h1>App Store</h1>');
  receiver.page('/store/android', '<!doctype html><html lang="en"><title>Google Play</title><h1>Google Play</h1>');
  receiver.page('/web/product', '<!doctype html><html lang="en"><title>Product</title><h1>Product on the web</h1>');
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await receiver?.close();
});

beforeEach(async () => {
  receiver.reset();
  await context?.close();
  context = undefined;
});

let pageCounter = 0;

function iosInput(overrides: Partial<LandingPageInput> = {}): LandingPageInput {
  const token = `tok${++pageCounter}ABCDEFGHJK`;
  return {
    token,
    platform: 'IOS',
    linkType: 'url',
    appId: 11,
    appName: '시그니처 쇼핑',
    appIconUrl: null,
    title: '가을 세일 최대 50%',
    appUrl: `signpostshop://product/1?signpost_token=${token}`,
    intentUrl: null,
    universalLinkUrl: null,
    storeUrl: `${receiver.apiBase}/store/ios?id=123456789`,
    fallbackUrl: `${receiver.apiBase}/web/product`,
    inAppBrowser: null,
    goalType: 'landing_goal',
    apiBase: receiver.apiBase,
    sdkUrl: `${receiver.apiBase}${receiver.sdkPath}`,
    ...overrides,
  };
}

function androidInput(overrides: Partial<LandingPageInput> = {}): LandingPageInput {
  const base = iosInput();
  const token = base.token;
  const storeUrl = `${receiver.apiBase}/store/android?id=com.example.shop&referrer=signpost_token%3D${token}`;
  return {
    ...base,
    platform: 'ANDROID',
    appId: 12,
    intentUrl: `intent://product/1?signpost_token=${token}#Intent;scheme=signpostshop;package=com.example.shop;S.browser_fallback_url=${encodeURIComponent(storeUrl)};end`,
    storeUrl,
    ...overrides,
  };
}

interface Visit {
  page: Page;
  /** Every navigation the page itself started (script or link), custom schemes and fragments included, in order. */
  navigations: string[];
  errors: string[];
  url: string;
}

/** Opens the landing page for `input` on `device`, as the short link would answer it. */
async function visit(device: Device, input: LandingPageInput, path = `/${input.token.slice(0, 7)}`): Promise<Visit> {
  receiver.page(path, landingPage({ ...input }));
  context = await phoneContext(browser, device);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: receiver.apiBase });
  const page = await context.newPage();
  const navigations: string[] = [];
  const errors: string[] = [];
  // Chromium reports a navigation to an app's scheme or an intent:// address here, fragment and
  // all, although nothing is loaded (a request event would lose the fragment).
  const cdp = await context.newCDPSession(page);
  await cdp.send('Page.enable');
  cdp.on('Page.frameRequestedNavigation', (event) => navigations.push(event.url));
  page.on('pageerror', (e) => errors.push(e.message));
  // Before the page loads, so its timers are the clock's; it follows the page to the next address.
  await page.clock.install();
  const url = `${receiver.apiBase}${path}`;
  await page.goto(url);
  return { page, navigations, errors, url };
}

const text = (page: Page, selector: string) => page.locator(selector).innerText();

/** Waits for the page's first navigation of its own (the app attempt or the in-app escape). */
async function firstNavigation({ page, navigations }: Visit): Promise<void> {
  while (navigations.length === 0) await page.waitForTimeout(20);
}

/** Moves the page's clock on by `ms`, firing every timer due in that time, without waiting for it. */
const timePasses = (page: Page, ms: number) => page.clock.runFor(ms);

/** Waits until the page is at an address matching `pattern` (the app attempts abort navigations, which waitForURL reports as errors). */
async function arrivesAt(page: Page, pattern: RegExp, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(page.url())) {
    if (Date.now() > deadline) throw new Error(`still at ${page.url()}, expected ${pattern}`);
    await page.waitForTimeout(50);
  }
  await page.waitForLoadState('load');
}

/** Browser-side accessibility checks (plain JavaScript: it runs in the page). */
const A11Y_REPORT = `(() => {
  const luminance = (rgb) => {
    const [r, g, b] = (rgb.match(/[\\d.]+/g) || []).slice(0, 3).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const background = (el) => {
    for (; el; el = el.parentElement) {
      const bg = getComputedStyle(el).backgroundColor;
      if (bg && bg !== 'transparent' && !/rgba\\(.*, 0\\)$/.test(bg)) return bg;
    }
    return 'rgb(255, 255, 255)';
  };
  const contrast = (el) => {
    const a = luminance(getComputedStyle(el).color);
    const b = luminance(background(el));
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  };
  const controls = [...document.querySelectorAll('a, button, input')];
  return {
    lang: document.documentElement.lang,
    viewport: document.querySelector('meta[name=viewport]')?.getAttribute('content'),
    title: document.title,
    unnamed: controls.filter((c) => !(c.textContent.trim() || c.getAttribute('aria-label') || (c.id && document.querySelector('label[for="' + c.id + '"]')))).length,
    imagesWithoutAlt: [...document.querySelectorAll('img')].filter((i) => !i.hasAttribute('alt')).length,
    lowContrast: [...document.querySelectorAll('h1, h2, p, li, a, button, input')]
      .filter((e) => (e.textContent.trim() || e.value) && contrast(e) < 4.5)
      .map((e) => e.tagName + ' ' + contrast(e).toFixed(2)),
    smallTargets: [...document.querySelectorAll('.btn')].filter((b) => b.getBoundingClientRect().height < 44).length,
    headings: document.querySelectorAll('h1').length,
  };
})()`;

describe('iPhone, Safari', () => {
  it('shows the app, posts the fingerprint, tries the app, then beacons the store visit and goes to the store', async () => {
    const input = iosInput();
    const shown = await visit(DEVICES.iphoneSafari, input);
    const { page, navigations, errors } = shown;

    expect(await text(page, 'h1')).toBe('시그니처 쇼핑');
    expect(await page.locator('main p').first().innerText()).toBe('가을 세일 최대 50%');
    expect(await page.getByRole('link', { name: '앱에서 열기' }).getAttribute('href')).toBe(input.appUrl);
    expect(await page.getByRole('link', { name: '앱 설치하기' }).getAttribute('href')).toBe(input.storeUrl);
    expect(await page.locator('meta[name="signpost:deeplink-token"]').getAttribute('content')).toBe(input.token);

    await firstNavigation(shown);
    await timePasses(page, PAST_THE_APP_WAIT_MS);
    await arrivesAt(page, /\/store\/ios\?id=123456789$/);
    expect(await text(page, 'h1')).toBe('App Store');

    const [fingerprint] = receiver.callsTo(FINGERPRINT);
    expect(receiver.callsTo(FINGERPRINT)).toHaveLength(1);
    expect(fingerprint!.json).toEqual({
      token: input.token,
      resolution: '390x844',
      appId: 11,
      userAgent: DEVICES.iphoneSafari.userAgent,
      timeZone: 'Asia/Seoul',
      language: 'ko-KR',
      pixelRatio: 3,
    });
    // The app attempt came between the page and the store, with the token.
    expect(navigations).toEqual([input.appUrl, input.storeUrl]);

    const [beacon] = receiver.callsTo(STORE_VISIT);
    expect(receiver.callsTo(STORE_VISIT)).toHaveLength(1);
    expect(beacon!.headers['content-type']).toMatch(/^text\/plain/);
    expect(JSON.parse(beacon!.text)).toEqual({ token: input.token, isCampaign: false });
    // The beacon was sent before the store navigation began (the receiver saw it).
    expect(receiver.calls.indexOf(beacon!)).toBeGreaterThan(receiver.calls.indexOf(fingerprint!));
    expect(errors).toEqual([]);
  });

  it('prefers the universal link on iOS', async () => {
    const universal = `${receiver.apiBase}/web/product?signpost_token=abc`;
    const input = iosInput({ universalLinkUrl: universal });
    expect(landingPage(input)).toContain(
      `id="signpost-open" class="btn primary" href="${universal.replace(/&/g, '&amp;')}"`,
    );
    const { page, navigations } = await visit(DEVICES.iphoneSafari, input);
    // Without the app installed the universal link is just the web page, which loads.
    await arrivesAt(page, /\/web\/product\?signpost_token=abc$/);
    await timePasses(page, PAST_THE_APP_WAIT_MS);
    expect(navigations).toEqual([universal]);
    expect(receiver.callsTo(STORE_VISIT)).toHaveLength(0);
  });

  it('does not go to the store when the app took over (page hidden)', async () => {
    const input = iosInput();
    const shown = await visit(DEVICES.iphoneSafari, input);
    const { page, navigations } = shown;
    await firstNavigation(shown);
    // What iOS does when the app opens: the page is hidden and loses focus.
    await page.evaluate(`Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'))`);
    await timePasses(page, PAST_THE_APP_WAIT_MS);
    expect(page.url()).not.toContain('/store/');
    expect(navigations).toEqual([input.appUrl]);
    expect(receiver.callsTo(STORE_VISIT)).toHaveLength(0);
    expect(receiver.callsTo(FINGERPRINT)).toHaveLength(1);
  });

  it('waits while a dialog is in front (blur) and goes to the store once the page has the focus back', async () => {
    const input = iosInput();
    const shown = await visit(DEVICES.iphoneSafari, input);
    const { page, navigations } = shown;
    await firstNavigation(shown);
    // iOS's "address is invalid" alert when the app is missing: the page loses focus, stays visible.
    await page.evaluate(`window.dispatchEvent(new Event('blur'))`);
    await timePasses(page, PAST_THE_APP_WAIT_MS);
    expect(page.url()).not.toContain('/store/');
    expect(navigations).toEqual([input.appUrl]);
    expect(receiver.callsTo(STORE_VISIT)).toHaveLength(0);
    await page.evaluate(`window.dispatchEvent(new Event('focus'))`);
    // The page decides a moment after the focus is back.
    await timePasses(page, 1000);
    await arrivesAt(page, /\/store\/ios/);
    expect(receiver.callsTo(STORE_VISIT)).toHaveLength(1);
  });

  it('goes to the web address, without a beacon, when there is no store', async () => {
    const input = iosInput({ storeUrl: null, appUrl: null });
    const { page } = await visit(DEVICES.iphoneSafari, input);
    expect(await page.getByRole('link', { name: '앱에서 열기' }).count()).toBe(0);
    await arrivesAt(page, /\/web\/product$/);
    expect(receiver.callsTo(FINGERPRINT)).toHaveLength(1);
    expect(receiver.callsTo(STORE_VISIT)).toHaveLength(0);
  });

  it('KakaoTalk: asks KakaoTalk to open the page in the external browser, and stays', async () => {
    const input = iosInput({ inAppBrowser: 'kakaotalk' });
    const shown = await visit(DEVICES.iphoneKakaoTalk, input);
    const { page, navigations, url } = shown;
    await firstNavigation(shown);
    await timePasses(page, PAST_THE_APP_WAIT_MS);
    expect(navigations).toEqual([`kakaotalk://web/openExternal?url=${encodeURIComponent(url)}`]);
    expect(page.url()).toBe(url);
    expect(receiver.callsTo(FINGERPRINT)).toHaveLength(1);
    expect(receiver.callsTo(STORE_VISIT)).toHaveLength(0);
  });

  it('Instagram: shows the "open in Safari" step with a link to copy, and does not try the app', async () => {
    const input = iosInput({ inAppBrowser: 'instagram' });
    const { page, navigations, url, errors } = await visit(DEVICES.iphoneInstagram, input);
    const step = page.getByRole('region', { name: 'Safari에서 열어 주세요' });
    expect(await step.isVisible()).toBe(true);
    expect(await step.locator('ol li').allInnerTexts()).toHaveLength(2);
    expect(await page.getByLabel('이 페이지의 링크').inputValue()).toBe(url);

    await page.getByRole('button', { name: '링크 복사' }).click();
    await page.waitForFunction(`document.querySelector('[role=status]').textContent !== ''`, undefined, {
      timeout: 3000,
    });
    expect(await page.getByRole('status').innerText()).toBe('링크를 복사했어요. Safari에 붙여 넣으세요.');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(url);

    await timePasses(page, PAST_THE_APP_WAIT_MS);
    expect(navigations).toEqual([]);
    expect(receiver.callsTo(FINGERPRINT)).toHaveLength(1);
    expect(receiver.callsTo(STORE_VISIT)).toHaveLength(0);

    // The SDK is initialised from the page: goalType from the link's config unless one is given.
    await page.evaluate(`Promise.all([Signpost.trackGoal(null, 1), Signpost.trackGoal('explicit', 2)])`);
    const goals = receiver.callsTo('/api/v1/sdk/web/journey/session/funnel/track').map((c) => c.json!.goalType);
    expect(goals.sort()).toEqual(['explicit', 'landing_goal']);
    expect(receiver.callsTo('/api/v1/sdk/web/journey/session/create')[0]!.headers['x-app-id']).toBe('11');
    expect(receiver.callsTo('/api/v1/sdk/web/journey/session/create')[0]!.json).toMatchObject({
      deepLinkToken: input.token,
    });
    expect(errors).toEqual([]);
  });

  it('meets accessibility basics: language, names of controls, contrast, tap targets', async () => {
    const { page } = await visit(
      DEVICES.iphoneSafari,
      iosInput({ appIconUrl: `${receiver.apiBase}/icon.png`, inAppBrowser: 'facebook' }),
    );
    await page.screenshot({ path: '/tmp/signpost-landing-ios.png' }).catch(() => {});
    const report = await page.evaluate(A11Y_REPORT);
    expect(report).toEqual({
      lang: 'ko',
      viewport: expect.stringContaining('width=device-width'),
      title: '시그니처 쇼핑',
      unnamed: 0,
      imagesWithoutAlt: 0,
      lowContrast: [],
      smallTargets: 0,
      headings: 1,
    });
  });

  it('speaks English when the server asks for it, and escapes what it shows', async () => {
    const input = iosInput({
      locale: 'en',
      appName: 'Shop <b>&</b>',
      title: '</script><script>window.hacked=1</script>',
      inAppBrowser: 'tiktok',
    });
    const { page } = await visit(DEVICES.iphoneInstagram, input);
    expect(await page.evaluate('document.documentElement.lang')).toBe('en');
    expect(await text(page, 'h1')).toBe('Shop <b>&</b>');
    expect(await page.getByRole('button', { name: 'Copy link' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Open in app' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Continue on the web' }).getAttribute('href')).toBe(input.fallbackUrl);
    expect(await page.evaluate('window.hacked')).toBeUndefined();
  });
});

describe('iPhone, clipboard match', () => {
  const CODE = 'sp:Ab3dE6gH9jK2';
  /** An app opened by universal links alone: nothing to try, the page waits for the tap. */
  const clipboardInput = () => iosInput({ appUrl: null, clipboardToken: CODE });
  const STORE = /\/store\/ios\?id=123456789$/;

  it('the Clipboard API refused: the code is copied through a selected field instead, the page says so and goes to the store', async () => {
    const { page, errors } = await visit(DEVICES.iphoneSafari, clipboardInput());
    await page.waitForFunction(`document.querySelector('[role=status]').textContent !== ''`, undefined, {
      timeout: 5000,
    });
    await page.evaluate(
      `navigator.clipboard.writeText = () => Promise.reject(new DOMException('refused', 'NotAllowedError'))`,
    );
    await page.getByRole('link', { name: '앱 설치하기' }).click();
    await page.waitForFunction(`document.querySelector('[role=status]').textContent.startsWith('코드를')`, undefined, {
      timeout: 3000,
    });
    expect(await page.getByRole('status').innerText()).toBe('코드를 복사했어요. App Store로 이동합니다…');
    // The note stays in view a moment before the store opens.
    await timePasses(page, 1000);
    await arrivesAt(page, STORE);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(CODE);
    expect(receiver.callsTo(STORE_VISIT)).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('no way to copy: the page says the code could not be copied and still goes to the store', async () => {
    const { page } = await visit(DEVICES.iphoneSafari, clipboardInput());
    await page.waitForFunction(`document.querySelector('[role=status]').textContent !== ''`, undefined, {
      timeout: 5000,
    });
    await page.evaluate(
      `navigator.clipboard.writeText = () => Promise.reject(new Error('refused')); document.execCommand = () => false`,
    );
    await page.getByRole('link', { name: '앱 설치하기' }).click();
    await page.waitForFunction(`document.querySelector('[role=status]').textContent.startsWith('코드를')`, undefined, {
      timeout: 3000,
    });
    expect(await page.getByRole('status').innerText()).toBe('코드를 복사하지 못했어요. App Store로 이동합니다…');
    await timePasses(page, 1000);
    await arrivesAt(page, STORE);
    expect(receiver.callsTo(STORE_VISIT)).toHaveLength(1);
  });

  it('in English, the note says what the button copies', async () => {
    receiver.page('/en-clip', landingPage({ ...clipboardInput(), locale: 'en' }));
    context = await phoneContext(browser, DEVICES.iphoneSafari);
    const page = await context.newPage();
    await page.goto(`${receiver.apiBase}/en-clip`);
    const store = page.getByRole('link', { name: 'Get the app' });
    expect(await store.getAttribute('aria-describedby')).toBe('signpost-clipboard');
    expect(await page.locator('#signpost-clipboard').innerText()).toBe(
      '“Get the app” copies a short code to your clipboard. When the app first opens, it uses the code to continue to this link.',
    );
    await page.waitForFunction(`document.querySelector('[role=status]').textContent !== ''`, undefined, {
      timeout: 5000,
    });
    expect(await page.getByRole('status').innerText()).toBe('Tap “Get the app” to continue.');
  });
});

describe('Android', () => {
  it('Chrome: fingerprint, the intent attempt, then the beacon and the store with the referrer token', async () => {
    const input = androidInput({ debug: true });
    const shown = await visit(DEVICES.androidChrome, input);
    const { page, navigations, errors, url } = shown;
    expect(await page.getByRole('link', { name: '앱에서 열기' }).getAttribute('href')).toBe(input.intentUrl);

    await firstNavigation(shown);
    await timePasses(page, PAST_THE_APP_WAIT_MS);
    await arrivesAt(page, /\/store\/android/);
    expect(page.url()).toBe(input.storeUrl);
    expect(new URL(page.url()).searchParams.get('referrer')).toBe(`signpost_token=${input.token}`);
    // The intent as the server made it, but Chrome's own fallback brought back to this page.
    const attempted = input.intentUrl!.replace(
      /S\.browser_fallback_url=[^;]*/,
      `S.browser_fallback_url=${encodeURIComponent(`${url}#signpost-store`)}`,
    );
    expect(navigations).toEqual([attempted, input.storeUrl]);

    expect(receiver.callsTo(FINGERPRINT)[0]!.json).toMatchObject({
      token: input.token,
      resolution: '412x915',
      appId: 12,
    });
    expect(JSON.parse(receiver.callsTo(STORE_VISIT)[0]!.text)).toEqual({ token: input.token, isCampaign: false });
    expect(receiver.callsTo(DEBUG)[0]!.json).toEqual({
      appUrl: input.appUrl,
      schemeEnd: String('signpostshop'.length),
      pathPart: `product/1?signpost_token=${input.token}`,
      androidPackage: 'com.example.shop',
      appScheme: 'signpostshop',
      intentUrl: input.intentUrl,
    });
    expect(errors).toEqual([]);
  });

  it("when Chrome follows the intent's fallback (no app), the page beacons and goes to the store at once", async () => {
    const input = androidInput();
    const { page, navigations, url } = await visit(DEVICES.androidChrome, input);
    while (navigations.length === 0) await page.waitForTimeout(20);
    const started = Date.now();
    // What Chrome does with S.browser_fallback_url when the package is not installed.
    const fallback = decodeURIComponent(/S\.browser_fallback_url=([^;]*)/.exec(navigations[0]!)![1]!);
    expect(fallback).toBe(`${url}#signpost-store`);
    await page.evaluate(`location.href = ${JSON.stringify(fallback)}`);
    await arrivesAt(page, /\/store\/android/);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(receiver.callsTo(STORE_VISIT)).toHaveLength(1);
  });

  it('a campaign link posts the campaign fingerprint and a campaign store visit; no debug unless asked', async () => {
    const input = androidInput({ linkType: 'campaign' });
    const shown = await visit(DEVICES.androidChrome, input);
    await firstNavigation(shown);
    await timePasses(shown.page, PAST_THE_APP_WAIT_MS);
    await arrivesAt(shown.page, /\/store\/android/);
    expect(receiver.callsTo(CAMPAIGN_FINGERPRINT)[0]!.json).toMatchObject({ token: input.token });
    expect(receiver.callsTo(FINGERPRINT)).toHaveLength(0);
    expect(JSON.parse(receiver.callsTo(STORE_VISIT)[0]!.text)).toEqual({ token: input.token, isCampaign: true });
    expect(receiver.callsTo(DEBUG)).toHaveLength(0);
  });

  it('Instagram in-app: an intent hands the page to the default browser', async () => {
    const input = androidInput({ inAppBrowser: 'instagram' });
    const shown = await visit(DEVICES.androidInstagram, input);
    const { page, navigations, url } = shown;
    await firstNavigation(shown);
    await timePasses(page, PAST_THE_APP_WAIT_MS);
    const { host, pathname } = new URL(url);
    expect(navigations).toEqual([
      `intent://${host}${pathname}#Intent;scheme=https;action=android.intent.action.VIEW;end`,
    ]);
    expect(receiver.callsTo(STORE_VISIT)).toHaveLength(0);
    // No Safari step on Android.
    expect(await page.getByRole('button', { name: '링크 복사' }).count()).toBe(0);
  });

  it('the fingerprint is retried when the service answers 503', async () => {
    receiver.fail(FINGERPRINT, 503);
    const input = androidInput();
    const shown = await visit(DEVICES.androidChrome, input);
    await firstNavigation(shown);
    // The retry waits out its back-off on the page's clock, running as usual; then the store.
    await expect.poll(() => receiver.callsTo(FINGERPRINT).length).toBe(2);
    await timePasses(shown.page, PAST_THE_APP_WAIT_MS);
    await arrivesAt(shown.page, /\/store\/android/);
    expect(receiver.callsTo(FINGERPRINT).map((c) => c.json!.token)).toEqual([input.token, input.token]);
  });
});
