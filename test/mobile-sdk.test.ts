// Mobile SDK API (/api/v1/sdk/mobile) as an app sees it: credentials, opening with a token
// (match), deferred deep linking on a first launch (fingerprint after the landing page's
// update-fingerprint, Install Referrer, two people behind one carrier IP, consumed once), links by
// address (resolve-shorturl, resolve-campaign), funnel/track idempotency, clicks, associations;
// another organization's tokens and codes are 404; resolutions, installs and funnel stages reach
// ClickHouse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import {
  BASE, UA, createApps, createCampaign, createDeepLink, createUrl, mobile, query, tapToLanding, unique, web,
  type Apps, type Org,
} from './support/deep-links.js';
import { expectError } from './support/error-body.js';
import { eventually, isolate, startService, type Isolation, type TestService } from './support/service.js';

let isolation: Isolation;
let svc: TestService;
let acme: Org;
let rival: Org;
let apps: Apps;
let rivalApps: Apps;

beforeAll(async () => {
  isolation = await isolate();
  svc = await startService(isolation, { PUBLIC_BASE_URL: BASE });
  acme = await svc.createOrganization('Acme Shop');
  rival = await svc.createOrganization('Rival Shop');
  apps = await createApps(svc, acme);
  rivalApps = await createApps(svc, rival, 'Rival');
});

afterAll(async () => {
  await svc?.close();
  await isolation?.dispose();
});

/** Distinct addresses per test, so one test's open tokens are never another's candidates. */
let net = 0;
const freshIp = () => `100.64.${++net}.10`;

const fingerprint = (token: string, resolution: string, extra: Record<string, unknown> = {}) =>
  web(svc, 'POST', '/deeplink/update-fingerprint', { token, resolution, ...extra });

const chRows = <T>(sql: string, params: Record<string, unknown>) => svc.clickhouse<T>(sql, params);

describe(`credentials (${backend})`, () => {
  it('answers 401 without the headers, with a wrong key, or with another app\'s key', async () => {
    const url = `/deeplink/match?token=${'A'.repeat(24)}`;
    expectError(await mobile(svc, null, 'GET', url), 401, { code: 'APP_CREDENTIALS_MISSING' });
    expectError(await mobile(svc, null, 'GET', url, undefined, { headers: { 'x-app-id': String(apps.ios.id) } }), 401, { code: 'APP_CREDENTIALS_MISSING' });
    const wrong = await mobile(svc, null, 'GET', url, undefined, { headers: { 'x-app-id': String(apps.ios.id), 'x-mobile-app-api-key': 'spm_wrong' } });
    expectError(wrong, 401, { code: 'APP_CREDENTIALS_INVALID' });
    const swapped = await mobile(svc, null, 'GET', url, undefined, { headers: { 'x-app-id': String(apps.ios.id), 'x-mobile-app-api-key': apps.android.apiKey } });
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
      scheme: 'shop://', originalUrl: 'https://shop.example/product/42', url: { id: link.id, alias: link.shortCode },
      token: page.token, deepLinkPath: 'product/42', linkType: 'url', goalType: 'purchase',
    });
    // A retry answers the same; the token is consumed for deferred matching.
    expect((await mobile(svc, apps.ios, 'GET', `/deeplink/match?token=${page.token}`)).json()).toMatchObject({ url: { id: link.id } });
    const row = await svc.container.deps.deepLinks.tokens.get(page.token);
    expect(row).toMatchObject({ consumedBy: 'token' });
    expect(row!.openedAt).toBeInstanceOf(Date);

    const stages = await eventually(async () => {
      const rows = await chRows<{ stage: string }>('SELECT stage FROM deeplink_funnel WHERE session_id = {s:String} ORDER BY stage', { s: page.token });
      return rows.length >= 3 && rows;
    }, 10_000, 'the open in the funnel');
    expect(stages.map((r) => r.stage)).toEqual(['CLICKED', 'APP_OPENED', 'DEEP_LINK_RESOLVED']);
    const resolutions = await eventually(async () => {
      const rows = await chRows<{ method: string; matched: number; match_type: string; reengagement: number }>(
        'SELECT method, matched, match_type, reengagement FROM deeplink_resolutions WHERE link_id = {id:UInt64} AND link_type = \'url\'', { id: link.id });
      return rows.length >= 2 && rows;
    }, 10_000, 'the resolutions');
    expect(resolutions.every((r) => r.method === 'token' && Number(r.matched) === 1 && r.match_type === 'token' && Number(r.reengagement) === 1)).toBe(true);
  });

  it('adds the campaign for a campaign token', async () => {
    const campaign = await createCampaign(svc, acme, { originalUrl: 'https://shop.example/winter', androidAppId: apps.android.id, alias: unique('winter') });
    const page = await tapToLanding(svc, `/${campaign.alias}`, { ua: UA.pixel, ip: freshIp() });
    const res = await mobile(svc, apps.android, 'GET', `/deeplink/match?token=${page.token}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      scheme: 'shop://', originalUrl: 'https://shop.example/winter', url: null,
      campaign: { id: campaign.id, name: campaign.name, alias: campaign.alias }, linkType: 'campaign',
    });
  });

  it('is 404 for an unknown or expired token and for another organization\'s, and records the failures', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone, ip: freshIp() });
    expectError(await mobile(svc, rivalApps.ios, 'GET', `/deeplink/match?token=${page.token}`), 404, { code: 'DEEP_LINK_TOKEN_NOT_FOUND' });
    expectError(await mobile(svc, apps.ios, 'GET', `/deeplink/match?token=${'Z'.repeat(24)}`), 404);
    expectError(await mobile(svc, apps.ios, 'GET', '/deeplink/match'), 400, { field: 'token' });
    await svc.container.postgres.sql`update deep_link_tokens set expires_at = now() - interval '1 second' where token = ${page.token}`;
    expectError(await mobile(svc, apps.ios, 'GET', `/deeplink/match?token=${page.token}`), 404);
    const failures = await eventually(async () => {
      const rows = await chRows<{ failure_reason: string }>(
        'SELECT failure_reason FROM deeplink_resolutions WHERE app_id = {app:UInt64} AND matched = 0 AND method = \'token\' ORDER BY ts', { app: apps.ios.id });
      return rows.length >= 2 && rows;
    }, 10_000, 'the failed resolutions');
    expect(failures.map((r) => r.failure_reason)).toEqual(['unknown_token', 'expired_token']);
    // The rival's attempt is the rival's own record.
    const rivalRows = await eventually(async () => {
      const rows = await chRows<{ n: string }>('SELECT count() AS n FROM deeplink_resolutions WHERE organization_id = {o:UInt64}', { o: rival.id });
      return Number(rows[0]!.n) >= 1 && rows;
    }, 10_000, 'the rival\'s failed resolution');
    expect(Number(rivalRows[0]!.n)).toBe(1);
  });
});

describe(`deeplink/resolve-fingerprint (${backend})`, () => {
  const resolve = (app: Apps['ios'], params: Record<string, string | undefined>, ip = '198.18.0.1') =>
    mobile(svc, app, 'GET', `/deeplink/resolve-fingerprint?${query(params)}`, undefined, { ip });

  it('matches a first launch to the click by fingerprint after update-fingerprint, once', async () => {
    const ip = freshIp();
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone, ip });
    expect((await fingerprint(page.token, '390x844', { appId: apps.ios.id, userAgent: UA.iPhone })).statusCode).toBe(200);

    const params = { userAgent: UA.iPhone, ipAddress: ip, resolution: '390x844', osVersion: '17.4' };
    const res = await resolve(apps.ios, params);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      matched: true, matchType: 'fingerprint', token: page.token, deepLinkPath: 'product/42', originalUrl: 'https://shop.example/product/42',
      url: { id: link.id, alias: link.shortCode }, campaign: null, linkType: 'url', goalType: 'purchase',
    });
    expect(body.confidence).toBeGreaterThanOrEqual(70);
    expect(body.confidence).toBeLessThanOrEqual(100);

    const again = await resolve(apps.ios, params);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ matched: false });

    const installs = await eventually(async () => {
      const rows = await chRows<{ match_type: string; link_id: string; session_id: string }>(
        'SELECT match_type, toString(link_id) AS link_id, session_id FROM app_installs WHERE app_id = {app:UInt64} ORDER BY ts', { app: apps.ios.id });
      return rows.length >= 2 && rows;
    }, 10_000, 'the installs');
    expect(installs.slice(-2)).toEqual([
      { match_type: 'fingerprint', link_id: String(link.id), session_id: page.token },
      { match_type: 'organic', link_id: '0', session_id: '' },
    ]);
    const stages = await eventually(async () => {
      const rows = await chRows<{ stage: string }>('SELECT stage FROM deeplink_funnel WHERE session_id = {s:String} ORDER BY stage', { s: page.token });
      return rows.length >= 4 && rows;
    }, 10_000, 'the install in the funnel');
    expect(stages.map((r) => r.stage)).toEqual(['CLICKED', 'APP_INSTALLED', 'APP_OPENED', 'DEEP_LINK_RESOLVED']);
    const attempts = await eventually(async () => {
      const rows = await chRows<{ method: string; matched: number; failure_reason: string; reengagement: number }>(
        'SELECT method, matched, failure_reason, reengagement FROM deeplink_resolutions WHERE app_id = {app:UInt64} AND method = \'fingerprint\' ORDER BY ts', { app: apps.ios.id });
      return rows.length >= 2 && rows;
    }, 10_000, 'the attempts');
    expect(attempts.slice(-2).map((r) => [Number(r.matched), r.failure_reason, Number(r.reengagement)])).toEqual([[1, '', 0], [0, 'no_candidate', 0]]);

    // The same flow, as the link's owner reads it in its app-install statistics.
    const stats = await eventually(async () => {
      const res = await svc.service('GET', `/urls/${link.id}/app-install-stats?platform=iOS`, acme.apiKey);
      return res.json().totalInstalls === 1 && res.json();
    }, 10_000, 'the install in the statistics');
    expect(stats).toMatchObject({ platform: 'iOS', iosInstalls: 1, totalClicks: 1, conversionRate: 100 });
    expect(stats.recentInstalls[0]).toMatchObject({ platform: 'iOS', matchType: 'fingerprint', linkType: 'url', linkId: link.id });
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
    expect(res.json()).toMatchObject({ matched: true, matchType: 'referrer', confidence: 100, token: page.token, deepLinkPath: 'product/99', url: { id: link.id } });
    expect((await resolve(apps.android, params, '192.0.2.200')).json()).toEqual({ matched: false });

    const install = await eventually(async () => {
      const rows = await chRows<{ match_type: string; confidence: number }>(
        'SELECT match_type, confidence FROM app_installs WHERE session_id = {s:String}', { s: page.token });
      return rows.length > 0 && rows;
    }, 10_000, 'the referrer install');
    expect(install.map((r) => [r.match_type, Number(r.confidence)])).toEqual([['referrer', 100]]);
  });

  it('matches a token carried through the clipboard or a URL', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone, ip: freshIp() });
    const res = await resolve(apps.ios, { userAgent: UA.iPhone, ipAddress: '192.0.2.201', token: page.appUrl! });
    expect(res.json()).toMatchObject({ matched: true, matchType: 'referrer', token: page.token });
  });

  it('gives two people behind one carrier IP their own links', async () => {
    const carrier = freshIp();
    const first = await createDeepLink(svc, acme, apps, { androidDeepLinkPath: 'product/first' });
    const second = await createDeepLink(svc, acme, apps, { androidDeepLinkPath: 'product/second' });
    const alice = await tapToLanding(svc, `/${first.shortCode}`, { ua: UA.galaxy, ip: carrier });
    const bob = await tapToLanding(svc, `/${second.shortCode}`, { ua: UA.pixel, ip: carrier });
    expect((await fingerprint(alice.token, '360x780', { pixelRatio: 3, timeZone: 'Asia/Seoul', language: 'ko-KR' })).statusCode).toBe(200);
    expect((await fingerprint(bob.token, '412x915', { pixelRatio: 2.625, timeZone: 'Asia/Seoul', language: 'ko-KR' })).statusCode).toBe(200);

    // Bob's phone opens first (the newer click), then Alice's; both report device pixels.
    const bobLaunch = await resolve(apps.android, { userAgent: UA.pixel, ipAddress: carrier, resolution: '1080x2400', osVersion: '14', deviceModel: 'Pixel 8', timeZone: 'Asia/Seoul', language: 'ko-KR' });
    const aliceLaunch = await resolve(apps.android, { userAgent: UA.galaxy, ipAddress: carrier, resolution: '1080x2340', osVersion: '14', deviceModel: 'SM-S918N', timeZone: 'Asia/Seoul', language: 'ko-KR' });
    expect(bobLaunch.json()).toMatchObject({ matched: true, matchType: 'fingerprint', token: bob.token, deepLinkPath: 'product/second' });
    expect(aliceLaunch.json()).toMatchObject({ matched: true, matchType: 'fingerprint', token: alice.token, deepLinkPath: 'product/first' });
  });

  it('never matches another app\'s or organization\'s click, nor a launch from elsewhere', async () => {
    const ip = freshIp();
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.iPhone, ip });
    await fingerprint(page.token, '390x844');
    const params = { userAgent: UA.iPhone, ipAddress: ip, resolution: '390x844' };
    expect((await resolve(rivalApps.ios, params)).json()).toEqual({ matched: false });
    expect((await resolve(rivalApps.ios, { ...params, referrer: `signpost_token=${page.token}` })).json()).toEqual({ matched: false });
    expect((await resolve(apps.ios, { ...params, ipAddress: '192.0.2.77' })).json()).toEqual({ matched: false });
    expect((await svc.container.deps.deepLinks.tokens.get(page.token))!.consumedAt).toBeNull();
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
  it('resolves a short code and an app path with a short code for the calling app\'s platform', async () => {
    const link = await createDeepLink(svc, acme, apps, { iosDeepLinkPath: 'ios/42', title: 'Product 42' });
    const res = await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-shorturl/${link.shortCode}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      originalUrl: 'https://shop.example/product/42', shortUrl: `${BASE}/${link.shortCode}`, mobileTargetUrl: 'https://m.shop.example/product/42',
      iosDeepLinkPath: 'ios/42', androidDeepLinkPath: 'product/42', scheme: 'shop://',
      url: { id: link.id, alias: link.shortCode, title: 'Product 42', shortUrl: `${BASE}/${link.shortCode}`, expiresAt: null },
      deepLinkPath: 'ios/42', linkType: 'url', goalType: 'purchase',
    });
    const android = await mobile(svc, apps.android, 'GET', `/deeplink/resolve-shorturl/${apps.android.path}/${link.shortCode}`);
    expect(android.json()).toMatchObject({ deepLinkPath: 'product/42', url: { id: link.id } });
    expectError(await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-shorturl/not-an-app/${link.shortCode}`), 404, { code: 'SHORT_URL_NOT_FOUND' });
  });

  it('is 404 for another organization\'s code or an unknown one, 410 once expired', async () => {
    const theirs = await createDeepLink(svc, rival, rivalApps);
    expectError(await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-shorturl/${theirs.shortCode}`), 404, { code: 'SHORT_URL_NOT_FOUND' });
    expectError(await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-shorturl/${rivalApps.ios.path}/${theirs.shortCode}`), 404);
    expectError(await mobile(svc, apps.ios, 'GET', '/deeplink/resolve-shorturl/nope-nope'), 404);
    const old = await createUrl(svc, acme, { url: 'https://shop.example/old', iosAppId: apps.ios.id });
    await svc.container.postgres.sql`update short_urls set expires_at = now() - interval '1 minute' where id = ${old.id}`;
    expectError(await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-shorturl/${old.shortCode}`), 410, { code: 'LINK_EXPIRED' });
  });

  it('resolves a campaign alias with the customerId the app passes', async () => {
    const campaign = await createCampaign(svc, acme, { originalUrl: 'https://shop.example/winter', iosAppId: apps.ios.id, alias: unique('winter'), goalType: 'signup' });
    const res = await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-campaign/${campaign.alias}?cid=member-9`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      originalUrl: 'https://shop.example/winter', campaign: { id: campaign.id, name: campaign.name, alias: campaign.alias }, customerId: 'member-9',
      campaignUrl: `${BASE}/${campaign.alias}`, scheme: 'shop://', deepLinkPath: null, linkType: 'campaign', goalType: 'signup',
    });
    expect((await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-campaign/${campaign.alias}`)).json()).toMatchObject({ customerId: null });
    const theirs = await createCampaign(svc, rival, { originalUrl: 'https://rival.example/x', alias: unique('theirs') });
    expectError(await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-campaign/${theirs.alias}`), 404, { code: 'CAMPAIGN_NOT_FOUND' });
    // A short code is not a campaign.
    const link = await createDeepLink(svc, acme, apps);
    expectError(await mobile(svc, apps.ios, 'GET', `/deeplink/resolve-campaign/${link.shortCode}`), 404);
  });
});

describe(`funnel/track (${backend})`, () => {
  const track = (body: Record<string, unknown>) => mobile(svc, apps.android, 'POST', '/deeplink/funnel/track', body);

  it('records a stage once per sessionId, stage and timestamp', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const sessionId = unique('session');
    const body = { sessionId, stage: 'GOAL_COMPLETED', timestamp: '2026-11-22T09:30:00Z', goalType: 'purchase_krw', goalValue: '15000', urlId: link.id, externalUserId: 'member-1' };
    const first = await track(body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ status: 'success', recorded: true, sessionId, stage: 'GOAL_COMPLETED', timestamp: '2026-11-22T09:30:00.000Z', linkType: 'url', linkId: link.id });
    expect((await track(body)).json()).toMatchObject({ recorded: false });
    // The same instant spelled differently is the same stage.
    expect((await track({ ...body, timestamp: '2026-11-22T18:30:00+09:00' })).json()).toMatchObject({ recorded: false });
    expect((await track({ ...body, timestamp: '2026-11-22T09:31:00Z' })).json()).toMatchObject({ recorded: true });
    // Without a timestamp a stage counts once per session.
    expect((await track({ sessionId, stage: 'APP_OPENED' })).json()).toMatchObject({ recorded: true });
    expect((await track({ sessionId, stage: 'APP_OPENED' })).json()).toMatchObject({ recorded: false });

    const rows = await eventually(async () => {
      const r = await chRows<{ stage: string; goal_type: string; goal_value: number; currency: string; external_user_id: string; source: string; link_id: string }>(
        'SELECT stage, goal_type, goal_value, currency, external_user_id, source, toString(link_id) AS link_id FROM deeplink_funnel WHERE session_id = {s:String} ORDER BY ts, stage', { s: sessionId });
      return r.length >= 3 && r;
    }, 10_000, 'the tracked stages');
    await new Promise((r) => setTimeout(r, 300));
    const settled = await chRows<{ n: string }>('SELECT count() AS n FROM deeplink_funnel WHERE session_id = {s:String}', { s: sessionId });
    expect(Number(settled[0]!.n)).toBe(3);
    expect(rows.filter((r) => r.stage === 'GOAL_COMPLETED')[0]).toEqual({ stage: 'GOAL_COMPLETED', goal_type: 'purchase_krw', goal_value: 15000, currency: 'KRW', external_user_id: 'member-1', source: 'sdk', link_id: String(link.id) });
  });

  it('takes the link from a session that is a deep-link token, and refuses other organizations\' links and bad values', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.pixel, ip: freshIp() });
    expect((await track({ sessionId: page.token, stage: 'GOAL_COMPLETED', timestamp: '2026-11-22T10:00:00Z' })).json()).toMatchObject({ linkType: 'url', linkId: link.id });

    const theirs = await createDeepLink(svc, rival, rivalApps);
    expectError(await track({ sessionId: 's1', stage: 'CLICKED', urlId: theirs.id }), 404, { code: 'SHORT_URL_NOT_FOUND' });
    expectError(await track({ sessionId: 's1', stage: 'SHOPPING' }), 400, { field: 'stage' });
    expectError(await track({ sessionId: 's1', stage: 'CLICKED', timestamp: 'yesterday' }), 400, { field: 'timestamp' });
    expectError(await track({ sessionId: 's1', stage: 'GOAL_COMPLETED', goalValue: 'lots' }), 400, { field: 'goalValue' });
    expectError(await track({ stage: 'CLICKED' }), 400, { field: 'sessionId' });
  });
});

describe(`clicks and associations (${backend})`, () => {
  it('records a click the app reports on a short URL, with a clickId', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const res = await mobile(svc, apps.ios, 'POST', '/clicks/url', { shortCode: link.shortCode, deviceInfo: { platform: 'IOS', os: 'iOS', userAgent: UA.iPhone } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({ clickId: expect.any(Number), originalUrl: 'https://shop.example/product/42', mobileTargetUrl: 'https://m.shop.example/product/42' });
    const next = (await mobile(svc, apps.ios, 'POST', '/clicks/url', { shortCode: link.shortCode })).json();
    expect(next.clickId).toBeGreaterThan(body.clickId);
    const clicks = await eventually(async () => {
      const rows = await chRows<{ n: string; os: string }>('SELECT count() AS n, any(os) AS os FROM clicks WHERE link_type = \'url\' AND link_id = {id:UInt64}', { id: link.id });
      return Number(rows[0]!.n) === 2 && rows;
    }, 10_000, 'the SDK clicks');
    expect(clicks[0]!.os).toBe('iOS');
    const theirs = await createDeepLink(svc, rival, rivalApps);
    expectError(await mobile(svc, apps.ios, 'POST', '/clicks/url', { shortCode: theirs.shortCode }), 404, { code: 'SHORT_URL_NOT_FOUND' });
    expectError(await mobile(svc, apps.ios, 'POST', '/clicks/url', {}), 400, { field: 'shortCode' });
  });

  it('records a campaign click with its customId and tracker', async () => {
    const campaign = await createCampaign(svc, acme, { originalUrl: 'https://shop.example/winter', alias: unique('winter') });
    const res = await mobile(svc, apps.android, 'POST', '/clicks/campaign', { campaignAlias: campaign.alias, trackerAlias: 'push', customId: 'member-3' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      clickId: expect.any(Number), originalUrl: 'https://shop.example/winter', campaign: { id: campaign.id, name: campaign.name, alias: campaign.alias },
      customId: 'member-3', trackerAlias: 'push',
    });
    const rows = await eventually(async () => {
      const r = await chRows<{ cid: string; tracker: string }>('SELECT cid, tracker FROM clicks WHERE link_type = \'campaign\' AND link_id = {id:UInt64}', { id: campaign.id });
      return r.length > 0 && r;
    }, 10_000, 'the campaign click');
    expect(rows).toEqual([{ cid: 'member-3', tracker: 'push' }]);
  });

  it('attaches a push identity to a link, updating it on a repeat, for short URLs and campaigns', async () => {
    const link = await createDeepLink(svc, acme, apps);
    const associate = (path: string, body: unknown) => mobile(svc, apps.ios, 'POST', path, body);
    const created = await associate(`/links/${link.shortCode}/associations`, { tokenidx: 'tok-1', identify: 'member-1' });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ status: 'success', action: 'created', linkType: 'url', linkId: link.id, tokenidx: 'tok-1', identify: 'member-1' });
    const updated = await associate(`/links/${apps.ios.path}/${link.shortCode}/associations?type=url`, { tokenidx: 'tok-1', identify: 'member-2' });
    expect(updated.json()).toMatchObject({ action: 'updated', identify: 'member-2' });
    const [stored] = await svc.container.postgres.sql`select identify from link_associations where link_id = ${link.id} and tokenidx = 'tok-1'`;
    expect(stored!.identify).toBe('member-2');

    const campaign = await createCampaign(svc, acme, { originalUrl: 'https://shop.example/c', alias: unique('assoc') });
    expect((await associate(`/links/${campaign.alias}/associations?type=campaign`, { tokenidx: 'tok-1', identify: 'm' })).json())
      .toMatchObject({ action: 'created', linkType: 'campaign', linkId: campaign.id });
    expectError(await associate(`/links/${campaign.alias}/associations`, { tokenidx: 'tok-1', identify: 'm' }), 404, { code: 'SHORT_URL_NOT_FOUND' });
    const theirs = await createDeepLink(svc, rival, rivalApps);
    expectError(await associate(`/links/${theirs.shortCode}/associations`, { tokenidx: 't', identify: 'm' }), 404);
    expectError(await associate(`/links/${link.shortCode}/associations?type=other`, { tokenidx: 't', identify: 'm' }), 400, { field: 'type' });
    expectError(await associate(`/links/${link.shortCode}/associations`, { identify: 'm' }), 400, { field: 'tokenidx' });
  });
});
