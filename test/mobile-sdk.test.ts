// Mobile SDK API (/api/v1/sdk/mobile) as an app sees it: credentials, opening with a token
// (match), deferred deep linking on a first launch (fingerprint after the landing page's
// update-fingerprint, Install Referrer, two people behind one carrier IP, consumed once), links by
// address (resolve-shorturl, resolve-campaign), funnel/track idempotency, clicks, associations;
// another organization's tokens and codes are 404; resolutions, installs and funnel stages reach
// ClickHouse.
import { beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import {
  BASE,
  UA,
  createApps,
  createCampaign,
  createDeepLink,
  createUrl,
  mobile,
  query,
  tapToLanding,
  unique,
  web,
  type Apps,
  type Org,
} from './support/deep-links.js';
import { expectError } from './support/error-body.js';
import { eventually, serviceForFile } from './support/service.js';

let acme: Org;
let rival: Org;
let apps: Apps;
let rivalApps: Apps;

const svc = serviceForFile({ PUBLIC_BASE_URL: BASE });

beforeAll(async () => {
  acme = await svc.createOrganization('Acme Shop');
  rival = await svc.createOrganization('Rival Shop');
  apps = await createApps(svc, acme);
  rivalApps = await createApps(svc, rival, 'Rival');
});

/** Distinct addresses per test, so one test's open tokens are never another's candidates. */
let net = 0;
const freshIp = () => `100.64.${++net}.10`;

const fingerprint = (token: string, resolution: string, extra: Record<string, unknown> = {}) =>
  web(svc, 'POST', '/deeplink/update-fingerprint', { token, resolution, ...extra });

const chRows = <T>(sql: string, params: Record<string, unknown>) => svc.clickhouse<T>(sql, params);

describe(`credentials (${backend})`, () => {
  it("answers 401 without the headers, with a wrong key, or with another app's key", async () => {
    const url = `/deeplink/match?token=${'A'.repeat(24)}`;
    expectError(await mobile(svc, null, 'GET', url), 401, { code: 'APP_CREDENTIALS_MISSING' });
    expectError(await mobile(svc, null, 'GET', url, undefined, { headers: { 'x-app-id': String(apps.ios.id) } }), 401, {
      code: 'APP_CREDENTIALS_MISSING',
    });
    const wrong = await mobile(svc, null, 'GET', url, undefined, {
      headers: { 'x-app-id': String(apps.ios.id), 'x-mobile-app-api-key': 'spm_wrong' },
    });
    expectError(wrong, 401, { code: 'APP_CREDENTIALS_INVALID' });
    const swapped = await mobile(svc, null, 'GET', url, undefined, {
      headers: { 'x-app-id': String(apps.ios.id), 'x-mobile-app-api-key': apps.android.apiKey },
    });
    expectError(swapped, 401, { code: 'APP_CREDENTIALS_INVALID' });
    expectError(await mobile(svc, null, 'POST', '/deeplink/funnel/track', { sessionId: 's', stage: 'CLICKED' }), 401);
  });
});

describe(`deeplink/match (${backend})`, () => {
  it('answers the link of a token the app was opened with, and records the open', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone, ip: freshIp() });
    const res = await mobile(svc, apps.ios, 'GET', `/deeplink/match?token=${page.token}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      scheme: 'shop://',
      originalUrl: 'https://shop.example/product/42',
      url: { id: link.id, alias: link.shortCode },
      token: page.token,
      deepLinkPath: 'product/42',
      linkType: 'url',
      goalType: 'purchase',
    });
    // A retry answers the same; the token is consumed for deferred matching.
    expect((await mobile(svc, apps.ios, 'GET', `/deeplink/match?token=${page.token}`)).json()).toMatchObject({
      url: { id: link.id },
    });
    const row = await svc.container.deepLinks.tokens.get(page.token);
    expect(row).toMatchObject({ consumedBy: 'token' });
    expect(row!.openedAt).toBeInstanceOf(Date);

    const stages = await eventually(
      async () => {
        const rows = await chRows<{ stage: string }>(
          'SELECT stage FROM deeplink_funnel WHERE session_id = {s:String} ORDER BY stage',
          { s: page.token },
        );
        return rows.length >= 3 && rows;
      },
      10_000,
      'the open in the funnel',
    );
    expect(stages.map((r) => r.stage)).toEqual(['CLICKED', 'APP_OPENED', 'DEEP_LINK_RESOLVED']);
    const resolutions = await eventually(
      async () => {
        const rows = await chRows<{ method: string; matched: number; match_type: string; reengagement: number }>(
          "SELECT method, matched, match_type, reengagement FROM deeplink_resolutions WHERE link_id = {id:UInt64} AND link_type = 'url'",
          { id: link.id },
        );
        return rows.length >= 2 && rows;
      },
      10_000,
      'the resolutions',
    );
    expect(
      resolutions.every(
        (r) =>
          r.method === 'token' && Number(r.matched) === 1 && r.match_type === 'token' && Number(r.reengagement) === 1,
      ),
    ).toBe(true);
  });

  it('deeplink/match: url {id, alias} is always present, and a campaign token adds campaign', async () => {
    const campaign = await createCampaign(svc, acme, {
      originalUrl: 'https://shop.example/winter',
      androidAppId: apps.android.id,
      alias: unique('winter'),
    });
    const page = await tapToLanding(svc, `/${campaign.alias}`, { ua: UA.pixel, ip: freshIp() });
    const res = await mobile(svc, apps.android, 'GET', `/deeplink/match?token=${page.token}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      scheme: 'shop://',
      originalUrl: 'https://shop.example/winter',
      url: { id: campaign.id, alias: campaign.alias },
      campaign: { id: campaign.id, name: campaign.name, alias: campaign.alias },
      linkType: 'campaign',
    });
  });

  it("is 404 for an unknown or expired token and for another organization's, and records the failures", async () => {
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone, ip: freshIp() });
    expectError(await mobile(svc, rivalApps.ios, 'GET', `/deeplink/match?token=${page.token}`), 404, {
      code: 'DEEP_LINK_TOKEN_NOT_FOUND',
    });
    expectError(await mobile(svc, apps.ios, 'GET', `/deeplink/match?token=${'Z'.repeat(24)}`), 404);
    expectError(await mobile(svc, apps.ios, 'GET', '/deeplink/match'), 400, { field: 'token' });
    await svc.container.postgres
      .sql`update deep_link_tokens set expires_at = now() - interval '1 second' where token = ${page.token}`;
    expectError(await mobile(svc, apps.ios, 'GET', `/deeplink/match?token=${page.token}`), 404);
    const failures = await eventually(
      async () => {
        const rows = await chRows<{ failure_reason: string }>(
          "SELECT failure_reason FROM deeplink_resolutions WHERE app_id = {app:UInt64} AND matched = 0 AND method = 'token' ORDER BY ts",
          { app: apps.ios.id },
        );
        return rows.length >= 2 && rows;
      },
      10_000,
      'the failed resolutions',
    );
    expect(failures.map((r) => r.failure_reason)).toEqual(['unknown_token', 'expired_token']);
    // The rival's attempt is the rival's own record.
    const rivalRows = await eventually(
      async () => {
        const rows = await chRows<{ n: string }>(
          'SELECT count() AS n FROM deeplink_resolutions WHERE organization_id = {o:UInt64}',
          { o: rival.id },
        );
        return Number(rows[0]!.n) >= 1 && rows;
      },
      10_000,
      "the rival's failed resolution",
    );
    expect(Number(rivalRows[0]!.n)).toBe(1);
  });
});

describe(`deeplink/resolve-fingerprint (${backend})`, () => {
  const resolve = (app: Apps['ios'], params: Record<string, string | undefined>, ip = '198.18.0.1') =>
    mobile(svc, app, 'GET', `/deeplink/resolve-fingerprint?${query(params)}`, undefined, { ip });

  it('matches a launch 90 minutes after the tap when its click is the only one from that address, not when two are', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const clickAt = async (ip: string) => {
      const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone, ip });
      expect((await fingerprint(page.token, '390x844', { appId: apps.ios.id, userAgent: UA.iPhone })).statusCode).toBe(
        200,
      );
      // A long download: the tap was an hour and a half ago (the token lives two hours).
      await svc.container.postgres
        .sql`update deep_link_tokens set created_at = now() - interval '90 minutes' where token = ${page.token}`;
      return page.token;
    };
    const params = (ip: string) => ({ userAgent: UA.iPhone, ipAddress: ip, resolution: '390x844', osVersion: '17.4' });

    const home = freshIp();
    const alone = await clickAt(home);
    const res = await resolve(apps.ios, params(home), home);
    expect(res.statusCode, res.body).toBe(200);
    // Scored under the threshold (an hour or more costs 32), matched as the one click from there.
    expect(res.json()).toMatchObject({
      matched: true,
      matchType: 'fingerprint',
      token: alone,
      signals: ['ip', 'os', 'osVersion', 'resolution'],
    });
    expect(res.json().confidence).toBeLessThan(70);

    const shared = freshIp();
    await clickAt(shared);
    await clickAt(shared);
    const two = await resolve(apps.ios, params(shared), shared);
    expect(two.json()).toEqual({ matched: false, reason: 'below_threshold', bestScore: res.json().confidence });
  });

  it('matches a first launch to the click by fingerprint after update-fingerprint, once', async () => {
    const ip = freshIp();
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone, ip });
    expect((await fingerprint(page.token, '390x844', { appId: apps.ios.id, userAgent: UA.iPhone })).statusCode).toBe(
      200,
    );

    const params = { userAgent: UA.iPhone, ipAddress: ip, resolution: '390x844', osVersion: '17.4' };
    const res = await resolve(apps.ios, params);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      matched: true,
      matchType: 'fingerprint',
      token: page.token,
      deepLinkPath: 'product/42',
      originalUrl: 'https://shop.example/product/42',
      url: { id: link.id, alias: link.shortCode },
      campaign: null,
      linkType: 'url',
      goalType: 'purchase',
      signals: ['ip', 'os', 'osVersion', 'resolution'],
    });
    expect(body.confidence).toBeGreaterThanOrEqual(70);
    expect(body.confidence).toBeLessThanOrEqual(100);

    // The same launch again: the click that fits was matched already, and the answer says so.
    const again = await resolve(apps.ios, params);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ matched: false, reason: 'already_consumed' });

    const installs = await eventually(
      async () => {
        const rows = await chRows<{ match_type: string; link_id: string; session_id: string }>(
          'SELECT match_type, toString(link_id) AS link_id, session_id FROM app_installs WHERE app_id = {app:UInt64} ORDER BY ts',
          { app: apps.ios.id },
        );
        // This launch's two installs, not just any two: earlier tests installed the same app too.
        const own = rows.findIndex((r) => r.session_id === page.token);
        return own >= 0 && rows.length > own + 1 && rows;
      },
      10_000,
      'the installs',
    );
    expect(installs.slice(-2)).toEqual([
      { match_type: 'fingerprint', link_id: String(link.id), session_id: page.token },
      { match_type: 'organic', link_id: '0', session_id: '' },
    ]);
    const stages = await eventually(
      async () => {
        const rows = await chRows<{ stage: string }>(
          'SELECT stage FROM deeplink_funnel WHERE session_id = {s:String} ORDER BY stage',
          { s: page.token },
        );
        return rows.length >= 4 && rows;
      },
      10_000,
      'the install in the funnel',
    );
    expect(stages.map((r) => r.stage)).toEqual(['CLICKED', 'APP_INSTALLED', 'APP_OPENED', 'DEEP_LINK_RESOLVED']);
    const attempts = await eventually(
      async () => {
        const rows = await chRows<{
          method: string;
          matched: number;
          failure_reason: string;
          signals: string[];
          reengagement: number;
        }>(
          "SELECT method, matched, failure_reason, signals, reengagement FROM deeplink_resolutions WHERE app_id = {app:UInt64} AND method = 'fingerprint' ORDER BY ts",
          { app: apps.ios.id },
        );
        return rows.length >= 2 && rows;
      },
      10_000,
      'the attempts',
    );
    expect(
      attempts.slice(-2).map((r) => [Number(r.matched), r.failure_reason, r.signals, Number(r.reengagement)]),
    ).toEqual([
      [1, '', ['ip', 'os', 'osVersion', 'resolution'], 0],
      [0, 'already_consumed', [], 0],
    ]);

    // The same flow, as the link's owner reads it in its app-install statistics.
    const stats = await eventually(
      async () => {
        const body = (await svc.service('GET', `/urls/${link.id}/app-install-stats?platform=iOS`, acme.apiKey)).json();
        // The click and the install reach ClickHouse each on its own way: wait for both.
        return body.totalInstalls === 1 && body.totalClicks === 1 ? body : undefined;
      },
      10_000,
      'the install and its click in the statistics',
    );
    expect(stats).toMatchObject({ platform: 'iOS', iosInstalls: 1, totalClicks: 1, conversionRate: 100 });
    expect(stats.recentInstalls[0]).toMatchObject({
      platform: 'iOS',
      matchType: 'fingerprint',
      linkType: 'url',
      linkId: link.id,
    });
    expect(stats.funnelStats.stages.map((st: { sessionsReached: number }) => st.sessionsReached)).toEqual([1, 1, 1, 1]);
    expect(stats.qualityStats).toMatchObject({ totalAttempts: 1, successfulResolutions: 1, fingerprintMatchRate: 100 });
  });

  it('matches the Install Referrer token deterministically, from any address, once', async () => {
    const link = await createDeepLink(svc, acme, apps, { androidDeepLinkPath: 'product/99' });
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.pixel, ip: freshIp() });
    // What Play hands the app: the referrer parameter of the store URL, decoded.
    const referrer = decodeURIComponent(new URL(page.storeUrl!).searchParams.get('referrer')!);
    expect(referrer).toBe(`signpost_token=${page.token}`);
    const params = { userAgent: UA.pixel, ipAddress: '192.0.2.200', referrer };
    const res = await resolve(apps.android, params, '192.0.2.200');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      matched: true,
      matchType: 'referrer',
      confidence: 100,
      signals: ['referrer'],
      token: page.token,
      deepLinkPath: 'product/99',
      url: { id: link.id },
    });
    expect((await resolve(apps.android, params, '192.0.2.200')).json()).toEqual({
      matched: false,
      reason: 'already_consumed',
    });

    const install = await eventually(
      async () => {
        const rows = await chRows<{ match_type: string; confidence: number }>(
          'SELECT match_type, confidence FROM app_installs WHERE session_id = {s:String}',
          { s: page.token },
        );
        return rows.length > 0 && rows;
      },
      10_000,
      'the referrer install',
    );
    expect(install.map((r) => [r.match_type, Number(r.confidence)])).toEqual([['referrer', 100]]);
  });

  it('matches a token carried through the clipboard or a URL', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone, ip: freshIp() });
    const res = await resolve(apps.ios, { userAgent: UA.iPhone, ipAddress: '192.0.2.201', token: page.appUrl! });
    expect(res.json()).toMatchObject({ matched: true, matchType: 'referrer', signals: ['token'], token: page.token });
  });

  it("matches an iPhone on an x.0 release with the spec's signals alone: iPhone OS 17_0 on the page, osVersion=17.0 from the app", async () => {
    const ip = freshIp();
    const ios17 =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: ios17, ip });
    expect((await fingerprint(page.token, '390x844', { pixelRatio: 3 })).statusCode).toBe(200);
    const res = await resolve(apps.ios, {
      userAgent: 'Shop/1.0 CFNetwork/1474 Darwin/23.0.0',
      ipAddress: ip,
      resolution: '1170x2532',
      osVersion: '17.0',
    });
    expect(res.json()).toMatchObject({
      matched: true,
      matchType: 'fingerprint',
      token: page.token,
      signals: ['ip', 'os', 'osVersion', 'resolution'],
    });
  });

  it('says why a first launch got nothing: no candidate, below the threshold, expired', async () => {
    const ip = freshIp();
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.galaxy, ip });
    await fingerprint(page.token, '360x780', { pixelRatio: 3, timeZone: 'Asia/Seoul' });
    const launch = {
      userAgent: UA.galaxy,
      osVersion: '14',
      deviceModel: 'SM-S918N',
      resolution: '1080x2340',
      timeZone: 'Asia/Seoul',
    };

    // Nothing tapped from this address, network or screen.
    expect(
      (
        await resolve(apps.android, { ...launch, ipAddress: '192.0.2.90', resolution: '1234x4321' }, '192.0.2.90')
      ).json(),
    ).toEqual({ matched: false, reason: 'no_candidate' });
    // The same phone from another network (found by its screen): it fits, but not well enough.
    const below = (
      await resolve(apps.android, { ...launch, ipAddress: '192.0.2.91', resolution: '360x780' }, '192.0.2.91')
    ).json();
    expect(below).toMatchObject({ matched: false, reason: 'below_threshold' });
    expect(below.bestScore).toBeGreaterThan(0);
    expect(below.bestScore).toBeLessThan(70);

    // The click expired before the app first opened.
    await svc.container.postgres
      .sql`update deep_link_tokens set expires_at = now() - interval '1 minute' where token = ${page.token}`;
    expect((await resolve(apps.android, { ...launch, ipAddress: ip }, ip)).json()).toEqual({
      matched: false,
      reason: 'expired',
    });
    // So did a held token.
    expect(
      (
        await resolve(
          apps.android,
          { ...launch, ipAddress: '192.0.2.92', referrer: `signpost_token=${page.token}` },
          '192.0.2.92',
        )
      ).json(),
    ).toEqual({ matched: false, reason: 'expired' });
  });

  it('gives two people behind one carrier IP their own links', async () => {
    const carrier = freshIp();
    const first = await createDeepLink(svc, acme, apps, { androidDeepLinkPath: 'product/first' });
    const second = await createDeepLink(svc, acme, apps, { androidDeepLinkPath: 'product/second' });
    const alice = await tapToLanding(svc, `/${first.shortCode}`, { ua: UA.galaxy, ip: carrier });
    const bob = await tapToLanding(svc, `/${second.shortCode}`, { ua: UA.pixel, ip: carrier });
    expect(
      (await fingerprint(alice.token, '360x780', { pixelRatio: 3, timeZone: 'Asia/Seoul', language: 'ko-KR' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await fingerprint(bob.token, '412x915', { pixelRatio: 2.625, timeZone: 'Asia/Seoul', language: 'ko-KR' }))
        .statusCode,
    ).toBe(200);

    // Bob's phone opens first (the newer click), then Alice's; both report device pixels.
    const bobLaunch = await resolve(apps.android, {
      userAgent: UA.pixel,
      ipAddress: carrier,
      resolution: '1080x2400',
      osVersion: '14',
      deviceModel: 'Pixel 8',
      timeZone: 'Asia/Seoul',
      language: 'ko-KR',
    });
    const aliceLaunch = await resolve(apps.android, {
      userAgent: UA.galaxy,
      ipAddress: carrier,
      resolution: '1080x2340',
      osVersion: '14',
      deviceModel: 'SM-S918N',
      timeZone: 'Asia/Seoul',
      language: 'ko-KR',
    });
    expect(bobLaunch.json()).toMatchObject({
      matched: true,
      matchType: 'fingerprint',
      token: bob.token,
      deepLinkPath: 'product/second',
    });
    expect(aliceLaunch.json()).toMatchObject({
      matched: true,
      matchType: 'fingerprint',
      token: alice.token,
      deepLinkPath: 'product/first',
    });
  });

  it("never matches another app's or organization's click, nor a launch from elsewhere", async () => {
    const ip = freshIp();
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone, ip });
    await fingerprint(page.token, '390x844');
    const params = { userAgent: UA.iPhone, ipAddress: ip, resolution: '390x844' };
    expect((await resolve(rivalApps.ios, params)).json()).toEqual({ matched: false, reason: 'no_candidate' });
    expect((await resolve(rivalApps.ios, { ...params, referrer: `signpost_token=${page.token}` })).json()).toEqual({
      matched: false,
      reason: 'no_candidate',
    });
    expect((await resolve(apps.ios, { ...params, ipAddress: '192.0.2.77' })).json()).toMatchObject({
      matched: false,
      reason: 'below_threshold',
    });
    expect((await svc.container.deepLinks.tokens.get(page.token))!.consumedAt).toBeNull();
  });

  it('hands one click to one of several launches racing for it', async () => {
    const ip = freshIp();
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone, ip });
    await fingerprint(page.token, '390x844');
    const params = { userAgent: UA.iPhone, ipAddress: ip, resolution: '390x844', osVersion: '17.4' };
    const answers = await Promise.all(Array.from({ length: 6 }, () => resolve(apps.ios, params)));
    const bodies = answers.map((a) => a.json() as { matched: boolean; token?: string });
    expect(bodies.filter((b) => b.matched)).toEqual([expect.objectContaining({ matched: true, token: page.token })]);
  });

  it('refuses a launch without its user agent or with an address that is not one', async () => {
    expectError(await resolve(apps.ios, { ipAddress: '192.0.2.1' }), 400, { field: 'userAgent' });
    expectError(await resolve(apps.ios, { userAgent: UA.iPhone, ipAddress: 'my-phone' }), 400, { field: 'ipAddress' });
  });
});

describe(`resolve-shorturl and resolve-campaign (${backend})`, () => {
  it("resolves a short code and an app path with a short code for the calling app's platform", async () => {
    const link = await createDeepLink(svc, acme, apps, { iosDeepLinkPath: 'ios/42', title: 'Product 42' });
    const res = await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-shorturl/${link.shortCode}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      originalUrl: 'https://shop.example/product/42',
      shortUrl: `${BASE}/${link.shortCode}`,
      mobileTargetUrl: 'https://m.shop.example/product/42',
      iosDeepLinkPath: 'ios/42',
      androidDeepLinkPath: 'product/42',
      scheme: 'shop://',
      url: {
        id: link.id,
        alias: link.shortCode,
        title: 'Product 42',
        shortUrl: `${BASE}/${link.shortCode}`,
        expiresAt: null,
      },
      deepLinkPath: 'ios/42',
      linkType: 'url',
      goalType: 'purchase',
    });
    const android = await mobile(
      svc,
      apps.android,
      'GET',
      `/deeplink/resolve-shorturl/${apps.android.path}/${link.shortCode}`,
    );
    expect(android.json()).toMatchObject({ deepLinkPath: 'product/42', url: { id: link.id } });
    expectError(await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-shorturl/not-an-app/${link.shortCode}`), 404, {
      code: 'SHORT_URL_NOT_FOUND',
    });
  });

  it("is 404 for another organization's code or an unknown one, 410 once expired", async () => {
    const theirs = await createDeepLink(svc, rival, rivalApps);
    expectError(await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-shorturl/${theirs.shortCode}`), 404, {
      code: 'SHORT_URL_NOT_FOUND',
    });
    expectError(
      await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-shorturl/${rivalApps.ios.path}/${theirs.shortCode}`),
      404,
    );
    expectError(await mobile(svc, apps.ios, 'GET', '/deeplink/resolve-shorturl/nope-nope'), 404);
    const old = await createUrl(svc, acme, { url: 'https://shop.example/old', iosAppId: apps.ios.id });
    await svc.container.postgres
      .sql`update short_urls set expires_at = now() - interval '1 minute' where id = ${old.id}`;
    expectError(await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-shorturl/${old.shortCode}`), 410, {
      code: 'LINK_EXPIRED',
    });
  });

  it('resolves a campaign alias with the customerId the app passes', async () => {
    const campaign = await createCampaign(svc, acme, {
      originalUrl: 'https://shop.example/winter',
      iosAppId: apps.ios.id,
      alias: unique('winter'),
      goalType: 'signup',
    });
    const res = await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-campaign/${campaign.alias}?cid=member-9`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      originalUrl: 'https://shop.example/winter',
      campaign: { id: campaign.id, name: campaign.name, alias: campaign.alias },
      customerId: 'member-9',
      customerIdSource: 'query',
      campaignUrl: `${BASE}/${campaign.alias}`,
      scheme: 'shop://',
      deepLinkPath: null,
      linkType: 'campaign',
      goalType: 'signup',
    });
    expect((await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-campaign/${campaign.alias}`)).json()).toMatchObject({
      customerId: null,
      customerIdSource: null,
    });
    const theirs = await createCampaign(svc, rival, {
      originalUrl: 'https://rival.example/x',
      alias: unique('theirs'),
    });
    expectError(await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-campaign/${theirs.alias}`), 404, {
      code: 'CAMPAIGN_NOT_FOUND',
    });
    // A short code is not a campaign.
    const link = await createDeepLink(svc, acme, apps);
    expectError(await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-campaign/${link.shortCode}`), 404);
  });
});

describe(`resolve-campaign customerId: the cid of the click the token or fingerprint matched (${backend})`, () => {
  const winter = () =>
    createCampaign(svc, acme, {
      originalUrl: 'https://shop.example/winter',
      iosAppId: apps.ios.id,
      alias: unique('winter'),
    });
  const resolveCampaign = (alias: string, params: Record<string, string>) =>
    mobile(svc, apps.ios, 'GET', `/deeplink/resolve-campaign/${alias}?${query(params)}`);

  it('answers the cid of the click its token names (a bare token or the URL carrying it)', async () => {
    const campaign = await winter();
    const page = await tapToLanding(svc, `/${campaign.alias}?cid=member-7`, { ua: UA.iPhone, ip: freshIp() });
    const res = await resolveCampaign(campaign.alias, { token: page.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      campaign: { id: campaign.id },
      customerId: 'member-7',
      customerIdSource: 'token',
    });
    const inUrl = await resolveCampaign(campaign.alias, { token: `shop://winter?signpost_token=${page.token}` });
    expect(inUrl.json()).toMatchObject({ customerId: 'member-7', customerIdSource: 'token' });
    // Still the click's cid after the app opened with the token (match consumes it).
    expect((await mobile(svc, apps.ios, 'GET', `/deeplink/match?token=${page.token}`)).statusCode).toBe(200);
    expect((await resolveCampaign(campaign.alias, { token: page.token })).json()).toMatchObject({
      customerId: 'member-7',
    });
    // A cid the app read from the address it was opened with comes first.
    expect((await resolveCampaign(campaign.alias, { token: page.token, cid: 'from-url' })).json()).toMatchObject({
      customerId: 'from-url',
      customerIdSource: 'query',
    });
  });

  it("never answers another campaign's or another organization's click", async () => {
    const campaign = await winter();
    const other = await winter();
    const page = await tapToLanding(svc, `/${other.alias}?cid=member-x`, { ua: UA.iPhone, ip: freshIp() });
    expect((await resolveCampaign(campaign.alias, { token: page.token })).json()).toMatchObject({
      customerId: null,
      customerIdSource: null,
    });
    const theirs = await createCampaign(svc, rival, {
      originalUrl: 'https://rival.example/w',
      iosAppId: rivalApps.ios.id,
      alias: unique('rival'),
    });
    const rivalPage = await tapToLanding(svc, `/${theirs.alias}?cid=rival-1`, { ua: UA.iPhone, ip: freshIp() });
    expect((await resolveCampaign(campaign.alias, { token: rivalPage.token })).json()).toMatchObject({
      customerId: null,
    });
  });

  it('answers the cid of the click the device signals match, and none for another device', async () => {
    const campaign = await winter();
    const ip = freshIp();
    const page = await tapToLanding(svc, `/${campaign.alias}?cid=member-8`, { ua: UA.iPhone, ip });
    expect((await fingerprint(page.token, '390x844', { appId: apps.ios.id, userAgent: UA.iPhone })).statusCode).toBe(
      200,
    );
    const device = { userAgent: UA.iPhone, ipAddress: ip, resolution: '390x844', osVersion: '17.4' };
    const res = await resolveCampaign(campaign.alias, device);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ customerId: 'member-8', customerIdSource: 'fingerprint' });
    // Nothing consumed: a repeat answers the same.
    expect((await resolveCampaign(campaign.alias, device)).json()).toMatchObject({ customerId: 'member-8' });
    // Another phone elsewhere is not this click.
    const stranger = await resolveCampaign(campaign.alias, { ...device, ipAddress: freshIp(), resolution: '430x932' });
    expect(stranger.json()).toMatchObject({ customerId: null, customerIdSource: null });
  });
});

describe(`funnel/track (${backend})`, () => {
  const track = (body: Record<string, unknown>) => mobile(svc, apps.android, 'POST', '/deeplink/funnel/track', body);

  it('records a stage once per sessionId, stage and timestamp', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const sessionId = unique('session');
    const body = {
      sessionId,
      stage: 'GOAL_COMPLETED',
      timestamp: '2026-11-22T09:30:00Z',
      goalType: 'purchase_krw',
      goalValue: '15000',
      urlId: link.id,
      externalUserId: 'member-1',
    };
    const first = await track(body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      status: 'success',
      recorded: true,
      sessionId,
      stage: 'GOAL_COMPLETED',
      timestamp: '2026-11-22T09:30:00.000Z',
      linkType: 'url',
      linkId: link.id,
    });
    expect((await track(body)).json()).toMatchObject({ recorded: false });
    // The same instant spelled differently is the same stage.
    expect((await track({ ...body, timestamp: '2026-11-22T18:30:00+09:00' })).json()).toMatchObject({
      recorded: false,
    });
    expect((await track({ ...body, timestamp: '2026-11-22T09:31:00Z' })).json()).toMatchObject({ recorded: true });
    // Without a timestamp a stage counts once per session.
    expect((await track({ sessionId, stage: 'APP_OPENED' })).json()).toMatchObject({ recorded: true });
    expect((await track({ sessionId, stage: 'APP_OPENED' })).json()).toMatchObject({ recorded: false });

    const rows = await eventually(
      async () => {
        const r = await chRows<{
          stage: string;
          goal_type: string;
          goal_value: number;
          currency: string;
          external_user_id: string;
          source: string;
          link_id: string;
        }>(
          'SELECT stage, goal_type, goal_value, currency, external_user_id, source, toString(link_id) AS link_id FROM deeplink_funnel WHERE session_id = {s:String} ORDER BY ts, stage',
          { s: sessionId },
        );
        return r.length >= 3 && r;
      },
      10_000,
      'the tracked stages',
    );
    await new Promise((r) => setTimeout(r, 300));
    const settled = await chRows<{ n: string }>(
      'SELECT count() AS n FROM deeplink_funnel WHERE session_id = {s:String}',
      { s: sessionId },
    );
    expect(Number(settled[0]!.n)).toBe(3);
    expect(rows.filter((r) => r.stage === 'GOAL_COMPLETED')[0]).toEqual({
      stage: 'GOAL_COMPLETED',
      goal_type: 'purchase_krw',
      goal_value: 15000,
      currency: 'KRW',
      external_user_id: 'member-1',
      source: 'sdk',
      link_id: String(link.id),
    });
  });

  it("takes the link from a session that is a deep-link token, and refuses other organizations' links and bad values", async () => {
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.pixel, ip: freshIp() });
    expect(
      (await track({ sessionId: page.token, stage: 'GOAL_COMPLETED', timestamp: '2026-11-22T10:00:00Z' })).json(),
    ).toMatchObject({ linkType: 'url', linkId: link.id });

    const theirs = await createDeepLink(svc, rival, rivalApps);
    expectError(await track({ sessionId: 's1', stage: 'CLICKED', urlId: theirs.id }), 404, {
      code: 'SHORT_URL_NOT_FOUND',
    });
    expectError(await track({ sessionId: 's1', stage: 'SHOPPING' }), 400, { field: 'stage' });
    expectError(await track({ sessionId: 's1', stage: 'CLICKED', timestamp: 'yesterday' }), 400, {
      field: 'timestamp',
    });
    expectError(await track({ stage: 'CLICKED' }), 400, { field: 'sessionId' });
  });
});

describe(`funnel/track goalValue is a String (${backend})`, () => {
  const track = (body: Record<string, unknown>) => mobile(svc, apps.android, 'POST', '/deeplink/funnel/track', body);

  it("accepts any string: a number is the value (revenue), other text is stored as the goal's text", async () => {
    const link = await createDeepLink(svc, acme, apps);
    const sessionId = unique('goal-text');
    const goal = (timestamp: string, goalValue: unknown) =>
      track({ sessionId, stage: 'GOAL_COMPLETED', timestamp, goalType: 'purchase_KRW', goalValue, urlId: link.id });
    for (const [at, value] of [
      ['09:00', 'gold tier'],
      ['09:01', ' 12.5 '],
      ['09:02', 7],
      ['09:03', '1,000'],
      ['09:04', '0x10'],
    ] as const) {
      const res = await goal(`2026-11-22T${at}:00Z`, value);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ recorded: true });
    }
    const rows = await eventually(
      async () => {
        const r = await chRows<{ goal_value: number; goal_text: string }>(
          'SELECT goal_value, goal_text FROM funnel_events_v1 WHERE session_id = {s:String} ORDER BY ts',
          { s: sessionId },
        );
        return r.length >= 5 && r;
      },
      10_000,
      'the goals',
    );
    expect(rows).toEqual([
      { goal_value: 0, goal_text: 'gold tier' },
      { goal_value: 12.5, goal_text: '' },
      { goal_value: 7, goal_text: '' },
      { goal_value: 0, goal_text: '1,000' },
      { goal_value: 0, goal_text: '0x10' },
    ]);
  });

  it('keeps revenue numeric: a text goalValue counts as a purchase with no amount', async () => {
    const shop = await svc.createOrganization('Revenue Shop', 'PRO');
    expect((await svc.admin('PUT', `/organizations/${shop.id}/add-ons`, { revenueAnalytics: true })).statusCode).toBe(
      200,
    );
    const shopApps = await createApps(svc, shop, 'Revenue');
    const campaign = await createCampaign(svc, shop, {
      originalUrl: 'https://shop.example/r',
      androidAppId: shopApps.android.id,
      alias: unique('rev'),
    });
    const day = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    for (const [i, goalValue] of ['15000', 'gold tier', '2500.5'].entries()) {
      const res = await mobile(svc, shopApps.android, 'POST', '/deeplink/funnel/track', {
        sessionId: unique('rev'),
        stage: 'GOAL_COMPLETED',
        timestamp: `${day}T0${i}:00:00Z`,
        goalType: 'purchase_KRW',
        goalValue,
        campaignId: campaign.id,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const revenue = await eventually(
      async () => {
        const r = (
          await svc.service('GET', `/campaigns/${campaign.id}/stats?startDate=${day}&endDate=${day}`, shop.apiKey)
        ).json().revenueStats;
        return r.purchases === 3 && r;
      },
      10_000,
      'the purchases',
    );
    expect(revenue).toMatchObject({ available: true, currency: 'KRW', totalRevenue: 17500.5, purchases: 3 });
  });
});

describe(`clicks and associations (${backend})`, () => {
  it('records a click the app reports on a short URL, with a clickId', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const res = await mobile(svc, apps.ios, 'POST', '/clicks/url', {
      shortCode: link.shortCode,
      deviceInfo: { platform: 'IOS', os: 'iOS', userAgent: UA.iPhone },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      clickId: expect.any(Number),
      originalUrl: 'https://shop.example/product/42',
      mobileTargetUrl: 'https://m.shop.example/product/42',
    });
    const next = (await mobile(svc, apps.ios, 'POST', '/clicks/url', { shortCode: link.shortCode })).json();
    expect(next.clickId).toBeGreaterThan(body.clickId);
    const clicks = await eventually(
      async () => {
        // The first click names its device; the second sent none.
        const rows = await chRows<{ n: string; ios: string }>(
          "SELECT count() AS n, countIf(os = 'iOS') AS ios FROM clicks WHERE link_type = 'url' AND link_id = {id:UInt64}",
          { id: link.id },
        );
        return Number(rows[0]!.n) === 2 && rows;
      },
      10_000,
      'the SDK clicks',
    );
    expect(Number(clicks[0]!.ios)).toBe(1);
    const theirs = await createDeepLink(svc, rival, rivalApps);
    expectError(await mobile(svc, apps.ios, 'POST', '/clicks/url', { shortCode: theirs.shortCode }), 404, {
      code: 'SHORT_URL_NOT_FOUND',
    });
    expectError(await mobile(svc, apps.ios, 'POST', '/clicks/url', {}), 400, { field: 'shortCode' });
  });

  it('records a campaign click with its customId and tracker', async () => {
    const campaign = await createCampaign(svc, acme, {
      originalUrl: 'https://shop.example/winter',
      alias: unique('winter'),
    });
    const res = await mobile(svc, apps.android, 'POST', '/clicks/campaign', {
      campaignAlias: campaign.alias,
      trackerAlias: 'push',
      customId: 'member-3',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      clickId: expect.any(Number),
      originalUrl: 'https://shop.example/winter',
      campaign: { id: campaign.id, name: campaign.name, alias: campaign.alias },
      customId: 'member-3',
      trackerAlias: 'push',
    });
    const rows = await eventually(
      async () => {
        const r = await chRows<{ cid: string; tracker: string }>(
          "SELECT cid, tracker FROM clicks WHERE link_type = 'campaign' AND link_id = {id:UInt64}",
          { id: campaign.id },
        );
        return r.length > 0 && r;
      },
      10_000,
      'the campaign click',
    );
    expect(rows).toEqual([{ cid: 'member-3', tracker: 'push' }]);
  });

  it('attaches a push identity to a link, updating it on a repeat, for short URLs and campaigns', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const associate = (path: string, body: unknown) => mobile(svc, apps.ios, 'POST', path, body);
    const created = await associate(`/links/${link.shortCode}/associations`, {
      tokenidx: 'tok-1',
      identify: 'member-1',
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({
      status: 'success',
      action: 'created',
      linkType: 'url',
      linkId: link.id,
      tokenidx: 'tok-1',
      identify: 'member-1',
    });
    const updated = await associate(`/links/${apps.ios.path}/${link.shortCode}/associations?type=url`, {
      tokenidx: 'tok-1',
      identify: 'member-2',
    });
    expect(updated.json()).toMatchObject({ action: 'updated', identify: 'member-2' });
    const [stored] = await svc.container.postgres
      .sql`select identify from link_associations where link_id = ${link.id} and tokenidx = 'tok-1'`;
    expect(stored!.identify).toBe('member-2');

    const campaign = await createCampaign(svc, acme, { originalUrl: 'https://shop.example/c', alias: unique('assoc') });
    expect(
      (
        await associate(`/links/${campaign.alias}/associations?type=campaign`, { tokenidx: 'tok-1', identify: 'm' })
      ).json(),
    ).toMatchObject({ action: 'created', linkType: 'campaign', linkId: campaign.id });
    expectError(await associate(`/links/${campaign.alias}/associations`, { tokenidx: 'tok-1', identify: 'm' }), 404, {
      code: 'SHORT_URL_NOT_FOUND',
    });
    const theirs = await createDeepLink(svc, rival, rivalApps);
    expectError(await associate(`/links/${theirs.shortCode}/associations`, { tokenidx: 't', identify: 'm' }), 404);
    expectError(
      await associate(`/links/${link.shortCode}/associations?type=other`, { tokenidx: 't', identify: 'm' }),
      400,
      { field: 'type' },
    );
    expectError(await associate(`/links/${link.shortCode}/associations`, { identify: 'm' }), 400, {
      field: 'tokenidx',
    });
  });
});
