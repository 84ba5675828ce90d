// Security headers on every answer, and pages that still work under their Content-Security-Policy:
// nosniff and a locked-down policy on the APIs; on every HTML page (404, 410, interstitial, share
// preview, landing page, /docs) a nonce-based policy with frame-ancestors 'none' and no
// 'unsafe-inline' script; no Referrer-Policy on a redirect (the referring page's decides what the
// destination sees); HSTS only over https (a trusted proxy's X-Forwarded-Proto) off loopback.
// Then a real Chromium: the landing page's web SDK and the interstitial's countdown run with no
// CSP violation in the console, and another site cannot frame the interstitial.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { DEVICES, phoneContext } from './support/mobile-browser.js';
import { eventually, serviceForFile } from './support/service.js';

const HOST = 'sgnp.example';
const BASE = `http://${HOST}`;
/** Another site that tries to frame the interstitial. */
const FRAMER_HOST = 'framer.example';
const DESTINATION = 'https://dest.example/landing';
const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36';
const IPHONE_UA = DEVICES.iphoneSafari.userAgent;
// Operator ad HTML as ad networks ship it: an inline script and an element with a style attribute.
const AD_HTML =
  '<ins class="ad" style="display:block;height:40px">ad</ins><script>window.signpostAdRan = true;</script>';

let browser: Browser;
let framer: http.Server;
let apiKey: string;
let plain: { id: number; shortCode: string };
let adLink: { id: number; shortCode: string };
let expiredCode: string;
/** When the expiring link's date has passed (its date is this instant or earlier, to the second). */
let expiredAfterMs: number;
let deepLink: { shortCode: string };

/** A real HTTP request (fetch would drop the Host header), answering status and headers. */
function httpGet(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  const port = (svc.container.app.server.address() as AddressInfo).port;
  return new Promise((resolve, reject) => {
    http
      .get(
        { host: '127.0.0.1', port, path, headers: { 'user-agent': DESKTOP_UA, ...headers }, agent: false },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, headers: res.headers });
        },
      )
      .on('error', reject);
  });
}

const csp = (res: { headers: Record<string, unknown> }) => String(res.headers['content-security-policy'] ?? '');
const directive = (policy: string, name: string) =>
  policy
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `)) ?? '';

const svc = serviceForFile({
  PUBLIC_BASE_URL: BASE,
  AD_PAGE_SECONDS: '1',
  AD_PAGE_HTML: AD_HTML,
  TRUST_PROXY: '127.0.0.1',
});

beforeAll(async () => {
  await svc.container.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = svc.container.app.server.address() as AddressInfo;
  const org = await svc.createOrganization('Headers', 'PRO');
  apiKey = org.apiKey;
  const post = async (url: string, body: Record<string, unknown>) => {
    const res = await svc.service('POST', url, apiKey, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  plain = await post('/urls', { url: 'https://dest.example/plain', title: 'Plain' });
  adLink = await post('/urls', { url: DESTINATION, title: 'With an ad', showAdPage: true });
  const ios = await post('/mobile-apps', {
    platform: 'IOS',
    appName: 'Shop for iPhone',
    bundleId: 'com.example.shop',
    teamId: 'ABCDE12345',
    scheme: 'shop://',
    storeUrl: 'https://apps.apple.com/app/id1234567890',
  });
  deepLink = await post('/urls', {
    url: 'https://shop.example/product/42',
    iosAppId: ios.id,
    iosDeepLinkPath: 'product/42',
  });
  expiredAfterMs = Date.now() + 2_000;
  const expiring = await post('/urls', {
    url: 'https://dest.example/old',
    expirationDate: new Date(expiredAfterMs).toISOString().slice(0, 19).replace('T', ' '),
  });
  expiredCode = expiring.shortCode;

  framer = http.createServer((req, res) => {
    const code = new URL(req.url ?? '/', 'http://x').searchParams.get('code');
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html lang="en"><title>Framer</title><iframe id="victim" src="${BASE}/${code}" width="400" height="400"></iframe>`,
      );
  });
  await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
  const framerPort = (framer.address() as AddressInfo).port;
  browser = await launchChromium([
    `--host-resolver-rules=MAP ${HOST} 127.0.0.1:${port}, MAP ${FRAMER_HOST} 127.0.0.1:${framerPort}`,
  ]);
});

afterAll(async () => {
  await browser?.close();
  framer?.close();
});

describe('headers', () => {
  it('every API answer: nosniff, Referrer-Policy, X-Frame-Options and a policy that allows nothing', async () => {
    for (const res of [
      await svc.service('GET', '/urls', apiKey),
      await svc.service('GET', '/urls', 'wrong-key'),
      await svc.inject({ method: 'GET', url: '/healthz' }),
      await svc.inject({ method: 'GET', url: '/api/v1/nothing-here' }),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(directive(csp(res), 'default-src')).toBe("default-src 'none'");
      expect(csp(res)).toContain("frame-ancestors 'none'");
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('every HTML page: its own nonce-based policy, frame-ancestors none, no unsafe-inline script', async () => {
    // The expiring link's date passes: only what is left of its 2 s (the set-up took most of it).
    await new Promise((r) => setTimeout(r, Math.max(0, expiredAfterMs + 100 - Date.now())));
    const pages = {
      notFound: await svc.inject({ method: 'GET', url: '/NoSuchLink1', headers: { 'user-agent': DESKTOP_UA } }),
      expired: await svc.inject({ method: 'GET', url: `/${expiredCode}`, headers: { 'user-agent': DESKTOP_UA } }),
      interstitial: await svc.inject({
        method: 'GET',
        url: `/${adLink.shortCode}`,
        headers: { 'user-agent': DESKTOP_UA },
      }),
      preview: await svc.inject({
        method: 'GET',
        url: `/${plain.shortCode}`,
        headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' },
      }),
      landing: await svc.inject({ method: 'GET', url: `/${deepLink.shortCode}`, headers: { 'user-agent': IPHONE_UA } }),
    };
    expect(Object.fromEntries(Object.entries(pages).map(([k, r]) => [k, r.statusCode]))).toEqual({
      notFound: 404,
      expired: 410,
      interstitial: 200,
      preview: 200,
      landing: 200,
    });
    const nonces = new Set<string>();
    for (const [name, res] of Object.entries(pages)) {
      expect(String(res.headers['content-type']), name).toContain('text/html');
      const policy = csp(res);
      expect(policy, name).toContain("frame-ancestors 'none'");
      expect(policy, name).toContain("object-src 'none'");
      expect(policy, name).toContain("base-uri 'none'");
      const script = directive(policy, 'script-src');
      expect(script, name).not.toContain('unsafe-inline');
      expect(script, name).not.toContain('unsafe-eval');
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(script)?.[1];
      expect(nonce, `${name}: ${policy}`).toBeTruthy();
      nonces.add(nonce!);
      // Every inline <style> and <script> of the page carries that nonce (the JSON data block needs none).
      const tags = res.body.match(/<(script|style)\b[^>]*>/g) ?? [];
      expect(tags.length, name).toBeGreaterThan(0);
      for (const tag of tags) if (!tag.includes('application/json')) expect(tag, name).toContain(`nonce="${nonce}"`);
      expect(res.headers['x-frame-options'], name).toBe('DENY');
      expect(res.headers['x-content-type-options'], name).toBe('nosniff');
      expect(res.headers['referrer-policy'], name).toBe('strict-origin-when-cross-origin');
    }
    expect(nonces.size, 'a fresh nonce per page').toBe(Object.keys(pages).length);
    // The landing page's SDK calls the service's origin; the plain pages call nothing.
    expect(directive(csp(pages.landing), 'connect-src')).toBe(`connect-src ${BASE}`);
    expect(directive(csp(pages.notFound), 'connect-src')).toBe("connect-src 'none'");
    expect(directive(csp(pages.notFound), 'style-src')).toMatch(/^style-src 'nonce-/);
  });

  it('/docs: Swagger UI under a same-origin policy that nobody may frame', async () => {
    for (const url of ['/docs', '/docs/', '/docs/static/index.html']) {
      const res = await svc.inject({ method: 'GET', url });
      if (res.statusCode >= 300 && res.statusCode < 400) continue;
      expect(res.statusCode, url).toBe(200);
      expect(csp(res), url).toContain("frame-ancestors 'none'");
      expect(directive(csp(res), 'script-src'), url).toBe("script-src 'self'");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it('a redirect: nosniff but no Referrer-Policy, on the router and on the fast path alike', async () => {
    const routed = await svc.inject({
      method: 'GET',
      url: `/${plain.shortCode}`,
      headers: { 'user-agent': DESKTOP_UA },
    });
    expect(routed.statusCode).toBe(302);
    const answeredInFront = () =>
      svc.container.deps.metrics
        .render()
        .then((text) => Number(/redirects_fast_path_total\S* (\d+)/.exec(text)?.[1] ?? 0));
    const before = await answeredInFront();
    const fast = await httpGet(`/${plain.shortCode}`, { host: HOST });
    expect(fast.status).toBe(302);
    expect(await answeredInFront()).toBe(before + 1);
    for (const headers of [routed.headers, fast.headers]) {
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBeUndefined();
      expect(headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('HSTS over https from a trusted proxy, never over http or to this machine', async () => {
    const https = { host: HOST, 'x-forwarded-proto': 'https' };
    // /healthz (JSON), a redirect (fast path), a 404 page.
    for (const path of ['/healthz', `/${plain.shortCode}`, '/NoSuchLink1']) {
      expect((await httpGet(path, https)).headers['strict-transport-security'], path).toBe('max-age=31536000');
      expect((await httpGet(path, { host: HOST })).headers['strict-transport-security'], path).toBeUndefined();
      expect(
        (await httpGet(path, { ...https, host: 'localhost' })).headers['strict-transport-security'],
        path,
      ).toBeUndefined();
      expect(
        (await httpGet(path, { ...https, host: '127.0.0.1' })).headers['strict-transport-security'],
        path,
      ).toBeUndefined();
    }
    // From an untrusted peer, X-Forwarded-Proto is not believed.
    const untrusted = await svc.inject({
      method: 'GET',
      url: '/healthz',
      headers: https,
      remoteAddress: '198.51.100.7',
    });
    expect(untrusted.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('in a browser', () => {
  /** Console lines about Content-Security-Policy (violations are reported there). */
  function cspConsole(page: Page): string[] {
    const lines: string[] = [];
    const take = (text: string) => {
      if (/content security policy/i.test(text)) lines.push(text);
    };
    page.on('console', (m: ConsoleMessage) => take(m.text()));
    page.on('pageerror', (err) => take(err.message));
    return lines;
  }

  it('the landing page runs the web SDK (fingerprint, app attempt, store) with no CSP violation', async () => {
    const context = await phoneContext(browser, DEVICES.iphoneSafari);
    await context.route(/^https:\/\/apps\.apple\.com\//, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html lang="en"><title>Store</title><h1>Store</h1>',
      }),
    );
    const page = await context.newPage();
    const violations = cspConsole(page);
    const fingerprint = page.waitForRequest((r) => r.url().endsWith('/update-fingerprint') && r.method() === 'POST');
    await page.goto(`${BASE}/${deepLink.shortCode}`);
    expect(await page.locator('h1').innerText()).toBe('Shop for iPhone');
    expect((await (await fingerprint).response())?.status()).toBe(200);
    // The app attempt (shop://) aborts a navigation first, so poll for the store.
    await eventually(async () => page.url().startsWith('https://apps.apple.com/'), 8_000, 'the store page');
    expect(violations).toEqual([]);
    await context.close();
  });

  it('the interstitial shows the operator ad, counts down and continues, with no CSP violation', async () => {
    const context = await browser.newContext({ userAgent: DESKTOP_UA });
    await context.route(/^https:\/\/dest\.example\//, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html lang="en"><title>Destination</title><h1>Arrived</h1>',
      }),
    );
    const page = await context.newPage();
    const violations = cspConsole(page);
    await page.goto(`${BASE}/${adLink.shortCode}`);
    expect(await page.locator('#continue').getAttribute('href')).toBe(DESTINATION);
    expect(await page.evaluate('window.signpostAdRan')).toBe(true);
    await page.waitForURL(DESTINATION, { timeout: 8_000 });
    expect(await page.locator('h1').innerText()).toBe('Arrived');
    expect(violations).toEqual([]);
    await context.close();
  });

  it('/docs renders the API reference with no CSP violation', async () => {
    const context = await browser.newContext({ userAgent: DESKTOP_UA });
    const page = await context.newPage();
    const violations = cspConsole(page);
    await page.goto(`${BASE}/docs/`);
    await page.locator('.opblock').first().waitFor({ timeout: 15_000 });
    // Swagger UI renders the operations near the window only: scroll down the page, collecting
    // the operations it shows on the way.
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          for (const id of await page.locator('.opblock').evaluateAll((els) => els.map((e) => e.id))) seen.add(id);
          await page.mouse.wheel(0, 600);
          return seen.size;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBeGreaterThan(40);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('another site cannot frame the interstitial', async () => {
    const context = await browser.newContext({ userAgent: DESKTOP_UA });
    await context.route(/^https:\/\/dest\.example\//, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<h1>Arrived</h1>' }),
    );
    const page = await context.newPage();
    const violations = cspConsole(page);
    const framed = page.waitForResponse((r) => r.url() === `${BASE}/${adLink.shortCode}`);
    await page.goto(`http://${FRAMER_HOST}/?code=${adLink.shortCode}`);
    expect((await framed).status()).toBe(200);
    await eventually(
      async () =>
        violations.some((v) => v.includes('frame-ancestors')) ||
        page.frames().some(
          (f) =>
            f !== page.mainFrame() &&
            f.url() === `${BASE}/${adLink.shortCode}` &&
            f
              .locator('#continue')
              .count()
              .then((n) => n > 0),
        ),
      8_000,
      'the frame to load or be refused',
    );
    const frame = page.frames().find((f) => f !== page.mainFrame());
    const rendered = frame
      ? await frame.evaluate("document.querySelector('#continue') !== null").catch(() => false)
      : false;
    expect(rendered, 'the interstitial rendered inside another site').toBe(false);
    expect(violations.some((v) => v.includes('frame-ancestors'))).toBe(true);
    await context.close();
  });
});
