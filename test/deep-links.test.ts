// Deep links from the tap to the landing page: phones with an app for
// their platform get the landing page with a token and every address the page tries; desktops and
// app-less platforms keep the 302; the click and the funnel's CLICKED stage reach ClickHouse; the
// Web SDK API's data routes (fingerprint, beacon store visit, debug reports, resolve) and CORS; a
// token store that is slow or failing falls back to the plain mobile redirect.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend, servicesEnv } from './support/backend.js';
import {
  BASE,
  UA,
  createApps,
  createCampaign,
  createDeepLink,
  createUrl,
  tap,
  tapToLanding,
  unique,
  web,
  type Apps,
  type Org,
} from './support/deep-links.js';
import { expectError } from './support/error-body.js';
import {
  ADMIN_TOKEN,
  eventually,
  isolate,
  type Isolation,
  startService,
  type TestService,
  serviceForFile,
} from './support/service.js';

let acme: Org;
let rival: Org;
let apps: Apps;
let rivalApps: Apps;

// A token write that fails or is too slow stops the next taps' attempts for a while: long enough
// that the tap right after is still within it, short enough to wait it out.
const svc = serviceForFile({ PUBLIC_BASE_URL: BASE, DEEP_LINK_TOKEN_BACKOFF_MS: '2000' });

beforeAll(async () => {
  acme = await svc.createOrganization('Acme Shop');
  rival = await svc.createOrganization('Rival Shop');
  apps = await createApps(svc, acme);
  rivalApps = await createApps(svc, rival, 'Rival');
});

const tokenRow = async (token: string) => svc.container.deepLinks.tokens.get(token);

describe(`landing page (${backend})`, () => {
  it('answers an iPhone with the landing page: token, app URL with the token, the App Store, the mobile fallback', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const res = await tap(svc, `/${link.shortCode}`, { ua: UA.iPhone });
    expect(res.headers['cache-control']).toBe('no-store');
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone });
    expect(page.token).toMatch(/^[0-9A-Za-z]{24}$/);
    expect(page).toMatchObject({
      platform: 'IOS',
      linkType: 'url',
      appId: apps.ios.id,
      appName: 'Shop iOS',
      appUrl: `shop://product/42?signpost_token=${page.token}`,
      intentUrl: null,
      storeUrl: 'https://apps.apple.com/app/id1234567890',
      fallbackUrl: 'https://m.shop.example/product/42',
      inAppBrowser: null,
      goalType: 'purchase',
      apiBase: BASE,
      sdkUrl: `${BASE}/sdk/web/1.0.0/signpost.js`,
    });
    // The SDK carries the nonce of the page's Content-Security-Policy.
    const nonce = /script-src 'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(res.body).toContain(`<script src="${BASE}/sdk/web/1.0.0/signpost.js" nonce="${nonce}" defer></script>`);
    // Each tap is its own single-purpose token.
    expect(landingTokenOf(res.body)).not.toBe(page.token);
  });

  it('answers an Android phone with the intent URL and a Play URL carrying the Install Referrer token', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.pixel });
    const t = page.token;
    const store = `https://play.google.com/store/apps/details?id=com.example.shop&hl=ko&referrer=signpost_token%3D${t}`;
    expect(page).toMatchObject({
      platform: 'ANDROID',
      appId: apps.android.id,
      appUrl: `shop://product/42?signpost_token=${t}`,
      storeUrl: store,
      intentUrl: `intent://product/42?signpost_token=${t}#Intent;scheme=shop;package=com.example.shop;S.browser_fallback_url=${encodeURIComponent(store)};end`,
      fallbackUrl: 'https://m.shop.example/product/42',
    });
  });

  it("remembers the click on the token: app, link, address, device, language, expiry from the app's setting", async () => {
    const link = await createDeepLink(svc, acme, apps);
    const before = Date.now();
    const page = await tapToLanding(svc, `/${link.shortCode}`, {
      ua: UA.galaxy,
      ip: '203.0.113.77',
      language: 'ko-KR,ko;q=0.9',
    });
    const row = await tokenRow(page.token);
    expect(row).toMatchObject({
      organizationId: acme.id,
      appId: apps.android.id,
      platform: 'ANDROID',
      linkType: 'url',
      linkId: link.id,
      ip: '203.0.113.77',
      ipPrefix: '203.0.113.0/24',
      os: 'ANDROID',
      osVersion: '14',
      deviceModel: 'SM-S918N',
      acceptLanguage: 'ko-KR,ko;q=0.9',
      consumedAt: null,
    });
    const lifetime = row!.expiresAt.getTime() - before;
    expect(lifetime).toBeGreaterThan(7_190_000);
    expect(lifetime).toBeLessThan(7_210_000);

    // A shorter lifetime set on the app applies to the next tap.
    const put = await svc.service('PUT', `/mobile-apps/${apps.android.id}`, acme.apiKey, {
      deepLinkTokenTtlSeconds: 600,
    });
    expect(put.statusCode, put.body).toBe(200);
    const short = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.galaxy });
    const shortRow = await tokenRow(short.token);
    expect(shortRow!.expiresAt.getTime() - shortRow!.createdAt.getTime()).toBeCloseTo(600_000, -3);
    await svc.service('PUT', `/mobile-apps/${apps.android.id}`, acme.apiKey, { deepLinkTokenTtlSeconds: 7200 });
  });

  it('keeps the 302 for desktops, for a platform without a linked app, and for HEAD', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const desktop = await tap(svc, `/${link.shortCode}`, { ua: UA.desktop });
    expect(desktop.statusCode).toBe(302);
    expect(desktop.headers.location).toBe('https://shop.example/product/42');

    const iosOnly = await createUrl(svc, acme, {
      url: 'https://shop.example/ios-only',
      iosAppId: apps.ios.id,
      mobileTargetUrl: 'https://m.shop.example/ios-only',
    });
    const android = await tap(svc, `/${iosOnly.shortCode}`, { ua: UA.pixel });
    expect(android.statusCode).toBe(302);
    expect(android.headers.location).toBe('https://m.shop.example/ios-only');
    await tapToLanding(svc, `/${iosOnly.shortCode}`, { ua: UA.iPhone });

    // A crawler with a phone's user agent is redirected like any crawler.
    const googlebot =
      'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
    expect((await tap(svc, `/${link.shortCode}`, { ua: googlebot })).statusCode).toBe(302);

    const head = await svc.inject({
      method: 'HEAD',
      url: `/${link.shortCode}`,
      headers: { host: 'sgnp.example', 'user-agent': UA.iPhone },
    });
    expect(head.statusCode).toBe(302);
  });

  it('falls back to the destination with its UTM parameters when the link has no mobileTargetUrl', async () => {
    const link = await createUrl(svc, acme, {
      url: 'https://shop.example/sale',
      androidAppId: apps.android.id,
      utmSource: 'newsletter',
    });
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.pixel });
    expect(page.fallbackUrl).toBe('https://shop.example/sale?utm_source=newsletter');
    // The app path has no deep-link path: the app opens at its root, token still attached.
    expect(page.appUrl).toBe(`shop://?signpost_token=${page.token}`);
  });

  it('tells the page which in-app browser it is in', async () => {
    const link = await createDeepLink(svc, acme, apps);
    expect((await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.kakaoAndroid })).inAppBrowser).toBe('kakaotalk');
    const instagram = `${UA.iPhone} Instagram 330.0.0.18.85`;
    expect((await tapToLanding(svc, `/${link.shortCode}`, { ua: instagram })).inAppBrowser).toBe('instagram');
  });

  it("serves campaigns too, with the click's cid and tracker on the token, at /{appPath}/{alias} as well", async () => {
    const campaign = await createCampaign(svc, acme, {
      originalUrl: 'https://shop.example/winter',
      iosAppId: apps.ios.id,
      androidAppId: apps.android.id,
      alias: unique('winter'),
    });
    const page = await tapToLanding(svc, `/${campaign.alias}?cid=member-7&tracker=insta`, { ua: UA.iPhone });
    expect(page).toMatchObject({
      linkType: 'campaign',
      appId: apps.ios.id,
      fallbackUrl: 'https://shop.example/winter?cid=member-7&tracker=insta',
    });
    expect(await tokenRow(page.token)).toMatchObject({
      linkType: 'campaign',
      linkId: campaign.id,
      cid: 'member-7',
      tracker: 'insta',
    });
    const viaPath = await tapToLanding(svc, `/${apps.android.path}/${campaign.alias}`, { ua: UA.pixel });
    expect(viaPath.linkType).toBe('campaign');
  });

  it("records the tap as a click and as the funnel's CLICKED stage of the token's session", async () => {
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone });
    const clicks = await eventually(
      async () => {
        const rows = await svc.clickhouse<{ n: string }>(
          "SELECT count() AS n FROM clicks WHERE link_id = {id:UInt64} AND link_type = 'url'",
          { id: link.id },
        );
        return Number(rows[0]!.n) === 1 && rows;
      },
      10_000,
      'the click in ClickHouse',
    );
    expect(clicks).toBeTruthy();
    const funnel = await eventually(
      async () => {
        const rows = await svc.clickhouse<Record<string, unknown>>(
          'SELECT stage, toString(app_id) AS app_id, platform, link_type, toString(link_id) AS link_id, source, toString(organization_id) AS organization_id FROM deeplink_funnel WHERE session_id = {s:String}',
          { s: page.token },
        );
        return rows.length > 0 && rows;
      },
      10_000,
      'CLICKED in deeplink_funnel',
    );
    expect(funnel).toEqual([
      {
        stage: 'CLICKED',
        app_id: String(apps.ios.id),
        platform: 'IOS',
        link_type: 'url',
        link_id: String(link.id),
        source: 'landing',
        organization_id: String(acme.id),
      },
    ]);
  });
});

function landingTokenOf(html: string): string {
  return /<meta name="signpost:deeplink-token" content="([^"]+)">/.exec(html)![1]!;
}

describe(`web SDK API (${backend})`, () => {
  it('stores the fingerprint the landing page posts, with CORS for any origin', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone });
    const res = await web(svc, 'POST', '/deeplink/update-fingerprint', {
      token: page.token,
      resolution: '390x844',
      appId: apps.ios.id,
      userAgent: UA.iPhone,
      timeZone: 'Asia/Seoul',
      language: 'ko-KR',
      pixelRatio: 3,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'success', message: 'fingerprint updated' });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(await tokenRow(page.token)).toMatchObject({
      resolution: '390x844',
      timeZone: 'Asia/Seoul',
      language: 'ko-kr',
      pixelRatio: 3,
    });

    const campaignVariant = await web(svc, 'POST', '/campaign-deep-link/update-fingerprint', {
      token: page.token,
      resolution: '844x390',
    });
    expect(campaignVariant.statusCode, campaignVariant.body).toBe(200);
    expect(campaignVariant.json()).toMatchObject({ status: 'success' });
    expect((await tokenRow(page.token))!.resolution).toBe('390x844');
  });

  it('update-fingerprint uses the userAgent field as a signal: it fills the OS version and model the click lacked, for the same OS', async () => {
    const link = await createDeepLink(svc, acme, apps);
    // Chrome's reduced user agent in the request: Android, but no version or model.
    const reduced =
      'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: reduced });
    expect(await tokenRow(page.token)).toMatchObject({ os: 'ANDROID', osVersion: null, deviceModel: null });
    // A page claiming another OS changes nothing of the click's device.
    expect(
      (
        await web(svc, 'POST', '/deeplink/update-fingerprint', {
          token: page.token,
          appId: apps.android.id,
          userAgent: UA.iPhone,
        })
      ).statusCode,
    ).toBe(200);
    expect(await tokenRow(page.token)).toMatchObject({ os: 'ANDROID', osVersion: null, deviceModel: null });
    const res = await web(svc, 'POST', '/deeplink/update-fingerprint', {
      token: page.token,
      resolution: '412x915',
      appId: apps.android.id,
      userAgent: UA.pixel,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await tokenRow(page.token)).toMatchObject({
      os: 'ANDROID',
      osVersion: '14',
      deviceModel: 'Pixel 8',
      resolution: '412x915',
    });
    // What the click itself said is never overwritten.
    const full = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.pixel });
    await web(svc, 'POST', '/deeplink/update-fingerprint', {
      token: full.token,
      userAgent: UA.pixel.replace('Android 14; Pixel 8', 'Android 13; SM-S918N'),
    });
    expect(await tokenRow(full.token)).toMatchObject({ osVersion: '14', deviceModel: 'Pixel 8' });
  });

  it('update-fingerprint refuses a token of another app with 404, as an unknown token', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone });
    for (const path of ['/deeplink/update-fingerprint', '/campaign-deep-link/update-fingerprint']) {
      // The organization's other app, and another organization's app.
      for (const appId of [apps.android.id, rivalApps.ios.id]) {
        expectError(await web(svc, 'POST', path, { token: page.token, resolution: '390x844', appId }), 404, {
          code: 'DEEP_LINK_TOKEN_NOT_FOUND',
        });
      }
    }
    expect((await tokenRow(page.token))!.resolution).toBeNull();
    expect(
      (
        await web(svc, 'POST', '/deeplink/update-fingerprint', {
          token: page.token,
          resolution: '390x844',
          appId: apps.ios.id,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('answers preflights for both fingerprint paths and the deeplink routes', async () => {
    for (const path of [
      '/deeplink/update-fingerprint',
      '/campaign-deep-link/update-fingerprint',
      '/deeplink/track-store-visit',
      '/deeplink/resolve',
    ]) {
      const res = await web(svc, 'OPTIONS', path, undefined, {
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      });
      expect(res.statusCode, path).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(String(res.headers['access-control-allow-headers'])).toContain('Content-Type');
    }
  });

  it('refuses an unknown or expired token (404) and a malformed resolution (400)', async () => {
    expectError(
      await web(svc, 'POST', '/deeplink/update-fingerprint', { token: 'A'.repeat(24), resolution: '390x844' }),
      404,
      { code: 'DEEP_LINK_TOKEN_NOT_FOUND' },
    );
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone });
    expectError(await web(svc, 'POST', '/deeplink/update-fingerprint', { token: page.token, resolution: 'big' }), 400, {
      field: 'resolution',
    });
    expectError(await web(svc, 'POST', '/deeplink/update-fingerprint', { resolution: '390x844' }), 400, {
      field: 'token',
    });
    await svc.container.postgres
      .sql`update deep_link_tokens set expires_at = now() - interval '1 second' where token = ${page.token}`;
    expectError(
      await web(svc, 'POST', '/deeplink/update-fingerprint', { token: page.token, resolution: '390x844' }),
      404,
    );
  });

  it('accepts the store-visit beacon as text/plain JSON and records STORE_VISITED once', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.pixel });
    const beacon = () =>
      web(svc, 'POST', '/deeplink/track-store-visit', JSON.stringify({ token: page.token, isCampaign: false }), {
        'content-type': 'text/plain;charset=UTF-8',
      });
    const first = await beacon();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ status: 'success', message: 'store visit recorded' });
    expect((await beacon()).json()).toEqual({ status: 'success', message: 'store visit already recorded' });
    expect((await tokenRow(page.token))!.storeVisitedAt).toBeInstanceOf(Date);

    // Plain JSON works as well; a text/plain body that is not JSON is the usual 400.
    const json = await web(svc, 'POST', '/deeplink/track-store-visit', { token: page.token });
    expect(json.statusCode).toBe(200);
    expectError(
      await web(svc, 'POST', '/deeplink/track-store-visit', 'token=abc', { 'content-type': 'text/plain' }),
      400,
      { code: 'MALFORMED_JSON' },
    );

    const stages = await eventually(
      async () => {
        const rows = await svc.clickhouse<{ stage: string }>(
          'SELECT stage FROM deeplink_funnel WHERE session_id = {s:String} ORDER BY stage',
          { s: page.token },
        );
        return rows.length >= 2 && rows;
      },
      10_000,
      'STORE_VISITED in deeplink_funnel',
    );
    await new Promise((r) => setTimeout(r, 300));
    const again = await svc.clickhouse<{ stage: string }>(
      'SELECT stage FROM deeplink_funnel WHERE session_id = {s:String} ORDER BY stage',
      { s: page.token },
    );
    expect(again.map((r) => r.stage)).toEqual(['CLICKED', 'STORE_VISITED']);
    expect(stages.map((r) => r.stage)).toEqual(['CLICKED', 'STORE_VISITED']);
  });

  it('stores debug-scheme reports and shows them to the operator, newest first, per app', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.pixel });
    const report = {
      appUrl: page.appUrl!,
      schemeEnd: '://',
      pathPart: 'product/42',
      androidPackage: 'com.example.shop',
      appScheme: 'shop',
      intentUrl: page.intentUrl!,
    };
    const res = await web(
      svc,
      'POST',
      '/deeplink/debug-scheme',
      { ...report, token: page.token },
      { 'user-agent': UA.pixel },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'success' });
    // Without token or app id (only the required fields) it is stored all the same.
    expect((await web(svc, 'POST', '/deeplink/debug-scheme', { ...report, pathPart: 'anonymous' })).statusCode).toBe(
      200,
    );

    const list = await svc.admin('GET', `/debug-scheme-reports?appId=${apps.android.id}&limit=10`);
    expect(list.statusCode, list.body).toBe(200);
    const content = (list.json() as { content: Record<string, unknown>[] }).content;
    expect(content[0]).toMatchObject({
      ...report,
      appId: apps.android.id,
      organizationId: acme.id,
      token: page.token,
      userAgent: UA.pixel,
    });
    const all = (await svc.admin('GET', '/debug-scheme-reports')).json() as { content: { pathPart: string }[] };
    expect(all.content[0]!.pathPart).toBe('anonymous');

    const anonymous = await svc.inject({ method: 'GET', url: '/api/admin/v1/debug-scheme-reports' });
    expectError(anonymous, 401, { code: 'ADMIN_TOKEN_INVALID' });
    const wrong = await svc.inject({
      method: 'GET',
      url: '/api/admin/v1/debug-scheme-reports',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}x` },
    });
    expectError(wrong, 401);
  });

  it("resolves a token for the web SDK (goalType, link) for an app of the token's organization only, without consuming it", async () => {
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone });
    const res = await web(svc, 'GET', `/deeplink/resolve?token=${page.token}`, undefined, {
      'x-app-id': String(apps.ios.id),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      token: page.token,
      goalType: 'purchase',
      linkType: 'url',
      url: { id: link.id, alias: link.shortCode },
      campaign: null,
      deepLinkPath: 'product/42',
    });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    // Any app of the organization may ask; another organization's app may not, nor no app at all.
    expect(
      (
        await web(svc, 'GET', `/deeplink/resolve?token=${page.token}`, undefined, {
          'x-app-id': String(apps.android.id),
        })
      ).statusCode,
    ).toBe(200);
    expectError(
      await web(svc, 'GET', `/deeplink/resolve?token=${page.token}`, undefined, {
        'x-app-id': String(rivalApps.ios.id),
      }),
      404,
      { code: 'DEEP_LINK_TOKEN_NOT_FOUND' },
    );
    expectError(await web(svc, 'GET', `/deeplink/resolve?token=${page.token}`), 400, { code: 'APP_ID_MISSING' });
    expectError(
      await web(svc, 'GET', `/deeplink/resolve?token=${'B'.repeat(24)}`, undefined, {
        'x-app-id': String(apps.ios.id),
      }),
      404,
    );
    expect((await tokenRow(page.token))!.consumedAt).toBeNull();

    const campaign = await createCampaign(svc, acme, {
      originalUrl: 'https://shop.example/c',
      iosAppId: apps.ios.id,
      goalType: 'signup',
      alias: unique('c'),
    });
    const cPage = await tapToLanding(svc, `/${campaign.alias}`, { ua: UA.iPhone });
    const cRes = await web(svc, 'GET', `/deeplink/resolve?token=${cPage.token}`, undefined, {
      'x-app-id': String(apps.ios.id),
    });
    expect(cRes.json()).toEqual({
      token: cPage.token,
      goalType: 'signup',
      linkType: 'campaign',
      url: null,
      campaign: { id: campaign.id, name: campaign.name, alias: campaign.alias },
      deepLinkPath: null,
    });
  });
});

describe(`token store trouble (${backend})`, () => {
  it('purges tokens a day after they expired, keeping them meanwhile to tell a late launch they expired', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const late = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone });
    const old = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone });
    // A page can be answered before its token's write ends (it has a deadline): wait for both rows.
    await eventually(async () => (await tokenRow(late.token)) && (await tokenRow(old.token)), 10_000, 'the tokens');
    await svc.container.postgres
      .sql`update deep_link_tokens set expires_at = now() - interval '1 minute' where token = ${late.token}`;
    await svc.container.postgres
      .sql`update deep_link_tokens set expires_at = now() - interval '25 hours' where token = ${old.token}`;
    // A round the service started on its own may be under way (purge() then answers that round,
    // begun before the update): the next round sees the expired token.
    let purged = await svc.container.deepLinks.purge();
    if (purged === 0) purged = await svc.container.deepLinks.purge();
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await tokenRow(old.token)).toBeUndefined();
    expect(await tokenRow(late.token)).toBeDefined();
  });

  it('falls back to the plain mobile redirect when the write fails, and tries again after the back-off', async () => {
    const link = await createDeepLink(svc, acme, apps);
    // No back-off left by an earlier test: this tap writes its token.
    await eventually(
      async () => (await tap(svc, `/${link.shortCode}`, { ua: UA.iPhone })).statusCode === 200,
      10_000,
      'the landing page (no back-off under way)',
    );
    const tokens = svc.container.deepLinks.tokens;
    const original = tokens.create;
    let attempts = 0;
    tokens.create = () => {
      attempts++;
      return Promise.reject(new Error('connection refused'));
    };
    try {
      const res = await tap(svc, `/${link.shortCode}`, { ua: UA.iPhone });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('https://m.shop.example/product/42');
      expect(attempts).toBe(1);
    } finally {
      tokens.create = original;
    }
    // Once the back-off (DEEP_LINK_TOKEN_BACKOFF_MS) is over, the landing page comes back.
    await eventually(
      async () => (await tap(svc, `/${link.shortCode}`, { ua: UA.iPhone })).statusCode === 200,
      10_000,
      'the landing page after the back-off',
    );
    await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone });
  });

  it('falls back to the plain mobile redirect when the token cannot be written in time, then skips the attempt for a while', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const tokens = svc.container.deepLinks.tokens;
    const original = tokens.create;
    let attempts = 0;
    tokens.create = () => {
      attempts++;
      return new Promise<void>(() => {});
    };
    try {
      const started = Date.now();
      const slow = await tap(svc, `/${link.shortCode}`, { ua: UA.iPhone });
      expect(slow.statusCode).toBe(302);
      expect(slow.headers.location).toBe('https://m.shop.example/product/42');
      expect(Date.now() - started).toBeLessThan(3_000);
      // The next taps do not wait again: they do not even try to write (a try would never end
      // before the deadline, as the first did not).
      expect((await tap(svc, `/${link.shortCode}`, { ua: UA.pixel })).statusCode).toBe(302);
      expect(attempts).toBe(1);
    } finally {
      tokens.create = original;
    }
  });
});

describe.runIf(backend === 'services')('PostgreSQL unreachable', () => {
  let downIsolation: Isolation;
  let down: TestService;
  let admin: postgres.Sql;
  let dbName: string;

  beforeAll(async () => {
    // A database of its own (it is the one made unreachable); chDB allows one data directory per process.
    downIsolation = await isolate();
    down = await startService(downIsolation, { PUBLIC_BASE_URL: BASE, DATA_DIR: svc.isolation.dataDir });
    admin = postgres(servicesEnv.postgresAdminUrl, { max: 1, onnotice: () => {} });
    dbName = new URL(downIsolation.env.DATABASE_URL!).pathname.slice(1);
  });

  afterAll(async () => {
    await admin?.unsafe(`alter database "${dbName}" allow_connections true`).catch(() => {});
    await admin?.end();
    await down?.close();
    await downIsolation?.dispose();
  });

  it('sends a phone on a cached deep link to the mobile fallback (302, never a 500), and the landing page comes back', async () => {
    const owner = await down.createOrganization('Resilient');
    const ownerApps = await createApps(down, owner);
    const link = await createDeepLink(down, owner, ownerApps);
    await tapToLanding(down, `/${link.shortCode}`, { ua: UA.iPhone });
    try {
      await admin.unsafe(`alter database "${dbName}" allow_connections false`);
      await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${dbName} and pid <> pg_backend_pid()`;
      for (const ua of [UA.iPhone, UA.pixel, UA.iPhone]) {
        const started = Date.now();
        const res = await tap(down, `/${link.shortCode}`, { ua });
        expect(res.statusCode).toBe(302);
        expect(res.headers.location).toBe('https://m.shop.example/product/42');
        expect(Date.now() - started).toBeLessThan(2_000);
      }
    } finally {
      await admin.unsafe(`alter database "${dbName}" allow_connections true`);
    }
    await eventually(
      async () => (await tap(down, `/${link.shortCode}`, { ua: UA.iPhone })).statusCode === 200,
      20_000,
      'the landing page once PostgreSQL is back',
    );
  }, 60_000);
});
