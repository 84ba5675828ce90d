// The redirect end to end on the backend under test: every outcome
// of GET/HEAD /{code}, /{appPath}/{code} and campaign /{alias}; custom domain hosts; preview pages
// for unfurlers; phones; clicks enriched into ClickHouse; the link cache (hits, negative entries,
// invalidation on the same instance and across instances) and redirects while PostgreSQL is down.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend, servicesEnv } from './support/backend.js';
import {
  eventually,
  isolate,
  type Isolation,
  startService,
  type TestLinkInput,
  type TestService,
  serviceForFile,
} from './support/service.js';

const PLATFORM_HOST = 'sgnp.example';

const UA = {
  iPhone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  iPad: 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  desktop:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  curl: 'curl/8.5.0',
  kakaoInApp:
    'Mozilla/5.0 (Linux; Android 14; SM-S918N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36 KAKAOTALK 10.8.0',
  lineInApp:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.5.0',
} as const;

/** In-app browsers of messengers and portals: people, whatever their app's preview fetcher is called. */
const IN_APP_BROWSERS = [
  UA.kakaoInApp,
  'Mozilla/5.0 (Linux; Android 13; SM-X706N Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/115.0.5790.138 Safari/537.36;KAKAOTALK 2410310',
  UA.lineInApp,
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_5_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.5 Mobile/15E148 Safari/605.1 NAVER(inapp; search; 1010; 11.24.5; 12PRO)',
  'Mozilla/5.0 (Linux; Android 14; SM-S918N Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.6367.82 Mobile Safari/537.36 DaumApps/8.5.3 DaumDevice/mobile',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Snapchat/13.10.0.42 (like Safari/8618.3.11.10.5, panda)',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 TeamsMobile-iOS',
];

const PREVIEW_FETCHERS = [
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'kakaotalk-scrap/1.0; +https://devtalk.kakao.com/public',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'TelegramBot (like TwitterBot)',
  'Mozilla/5.0 (compatible; Yeti/1.1; +http://naver.me/spd)',
  'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  'WhatsApp/2.23.20.0',
  'Twitterbot/1.0',
  'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  'Mozilla/5.0 (compatible; Snap URL Preview Service; bot; snapchat; https://developers.snap.com/robots)',
];

let org: { id: number; apiKey: string };

const svc = serviceForFile({ PUBLIC_BASE_URL: `https://${PLATFORM_HOST}` });

beforeAll(async () => {
  org = await svc.createOrganization('Redirects');
});

interface Visit {
  method?: 'GET' | 'HEAD';
  host?: string;
  ua?: string;
  referer?: string;
  remoteAddress?: string;
}

/** A click as a browser sends it: explicit Host and User-Agent (desktop Chrome unless told). */
function visit(path: string, v: Visit = {}, on: TestService = svc) {
  return on.inject({
    method: v.method ?? 'GET',
    url: path,
    headers: {
      host: v.host ?? PLATFORM_HOST,
      'user-agent': v.ua ?? UA.desktop,
      ...(v.referer ? { referer: v.referer } : {}),
    },
    ...(v.remoteAddress ? { remoteAddress: v.remoteAddress } : {}),
  });
}

/** The status and Location of a visit, for one-line expectations. */
async function outcome(path: string, v: Visit = {}, on: TestService = svc) {
  const res = await visit(path, v, on);
  return { status: res.statusCode, location: res.headers.location };
}

const createUrl = (input: TestLinkInput, apiKey = org.apiKey) => svc.createLink({ apiKey }, input);

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 9)}`;

function expectHtml(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number) {
  expect(res.statusCode).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
  expect(res.body).toMatch(/^<!doctype html>/i);
}

describe(`redirect outcomes (${backend})`, () => {
  it("302s to originalUrl with the link's UTM parameters set, not duplicated", async () => {
    const link = await createUrl({
      url: 'https://shop.example/sale?utm_source=old&page=2',
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'spring',
    });
    const { status, location } = await outcome(`/${link.shortCode}`);
    expect(status).toBe(302);
    const target = new URL(location as string);
    expect(`${target.origin}${target.pathname}`).toBe('https://shop.example/sale');
    expect(target.searchParams.getAll('utm_source')).toEqual(['newsletter']);
    expect(target.searchParams.get('utm_medium')).toBe('email');
    expect(target.searchParams.get('utm_campaign')).toBe('spring');
    expect(target.searchParams.get('page')).toBe('2');
    expect(target.searchParams.has('utm_term')).toBe(false);
  });

  it("carries the click's query parameters over, a click's utm_source winning over the link's", async () => {
    const link = await createUrl({ url: 'https://shop.example/p', utmSource: 'newsletter', utmMedium: 'email' });
    const carried = new URL((await outcome(`/${link.shortCode}?ref=x`)).location as string);
    expect(carried.searchParams.get('ref')).toBe('x');
    expect(carried.searchParams.get('utm_source')).toBe('newsletter');

    const overridden = new URL((await outcome(`/${link.shortCode}?utm_source=kakao&ref=y`)).location as string);
    expect(overridden.searchParams.getAll('utm_source')).toEqual(['kakao']);
    expect(overridden.searchParams.get('utm_medium')).toBe('email');
    expect(overridden.searchParams.get('ref')).toBe('y');
  });

  it('redirects a campaign /{alias}, keeping cid and tracker', async () => {
    const alias = unique('camp');
    await svc.createCampaign(org, {
      name: 'Spring campaign',
      alias,
      originalUrl: 'https://shop.example/spring',
      utmSource: 'insta',
    });
    const { status, location } = await outcome(`/${alias}?cid=u1&tracker=t1`);
    expect(status).toBe(302);
    const target = new URL(location as string);
    expect(`${target.origin}${target.pathname}`).toBe('https://shop.example/spring');
    expect(target.searchParams.get('cid')).toBe('u1');
    expect(target.searchParams.get('tracker')).toBe('t1');
    expect(target.searchParams.get('utm_source')).toBe('insta');
  });

  it('answers an unknown code with the 404 page', async () => {
    const res = await visit('/NoSuchCode1');
    expectHtml(res, 404);
    // Korean, the service's own default, when the browser names none of our languages.
    expect(res.body).toContain('링크를 찾을 수 없습니다');
    expect(res.headers.location).toBeUndefined();
  });

  it('answers 404 for a deleted link that resolved before the delete', async () => {
    const link = await createUrl({ url: 'https://shop.example/gone' });
    expect((await outcome(`/${link.shortCode}`)).status).toBe(302);
    expect((await svc.service('DELETE', `/urls/${link.id}`, org.apiKey)).statusCode).toBe(204);
    const res = await visit(`/${link.shortCode}`);
    expectHtml(res, 404);
  });

  it('serves the new destination at once after an update on the same instance', async () => {
    const link = await createUrl({ url: 'https://shop.example/before' });
    expect((await outcome(`/${link.shortCode}`)).location).toBe('https://shop.example/before');
    const res = await svc.service('PUT', `/urls/${link.id}`, org.apiKey, { originalUrl: 'https://shop.example/after' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await outcome(`/${link.shortCode}`)).location).toBe('https://shop.example/after');
  });

  it('answers 410 once the link has expired', async () => {
    // Whole seconds, as the API's YYYY-MM-DD HH:mm:ss gives.
    const link = await createUrl({
      url: 'https://shop.example/flash',
      expiresAt: new Date(Math.floor(Date.now() / 1000) * 1000 + 3_000),
    });
    expect((await outcome(`/${link.shortCode}`)).status).toBe(302);
    const res = await eventually(
      async () => {
        const r = await visit(`/${link.shortCode}`);
        return r.statusCode === 410 ? r : undefined;
      },
      10_000,
      'the link to expire',
    );
    expectHtml(res, 410);
    expect(res.body).toContain('만료된 링크입니다');
  });

  it('shows the ad interstitial for showAdPage: a 200 page that continues to the destination', async () => {
    const link = await createUrl({ url: 'https://shop.example/p?a=1&b=2', showAdPage: true, title: 'Deals' });
    const res = await visit(`/${link.shortCode}`);
    expectHtml(res, 200);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toContain('href="https://shop.example/p?a=1&amp;b=2"');
    expect(res.body).toMatch(/<meta http-equiv="refresh" content="\d+;url=https:\/\/shop\.example\/p\?a=1&amp;b=2">/);
    expect(res.body).toContain('location.replace("https://shop.example/p?a=1&b=2")');
  });

  it('serves /{appPath}/{code} for the app path of a linked app, and 404s for any other path', async () => {
    const { id: iosAppId, path: appPath } = await svc.createApp(org, {
      platform: 'IOS',
      appName: 'Shop',
      bundleId: 'com.example.shop',
      teamId: 'ABCDE12345',
      scheme: 'shop://',
    });
    const link = await createUrl({ url: 'https://shop.example/app', iosAppId });
    expect(await outcome(`/${appPath}/${link.shortCode}`)).toEqual({
      status: 302,
      location: 'https://shop.example/app',
    });
    expect((await outcome(`/${link.shortCode}`)).status).toBe(302);
    const other = await visit(`/${appPath}x/${link.shortCode}`);
    expectHtml(other, 404);
    // A link without apps has no app path either.
    const plain = await createUrl({ url: 'https://shop.example/plain' });
    expect((await outcome(`/${appPath}/${plain.shortCode}`)).status).toBe(404);
  });

  it("leaves the service's own paths alone: /api/... is the JSON 404, /docs/ the API docs", async () => {
    const api = await visit('/api/whatever');
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    expect(api.json()).toMatchObject({ status: 404, error: 'Not Found' });

    const docs = await visit('/docs/');
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger');

    expect((await visit('/healthz')).headers['content-type']).toMatch(/^application\/json/);
  });

  it('treats any host that is not a custom domain as the platform host', async () => {
    const link = await createUrl({ url: 'https://shop.example/any-host' });
    for (const host of ['10.0.0.5:3000', 'localhost', 'internal-lb.local']) {
      expect(await outcome(`/${link.shortCode}`, { host })).toEqual({
        status: 302,
        location: 'https://shop.example/any-host',
      });
    }
  });
});

describe(`custom domains (${backend})`, () => {
  const DOMAIN = 'go.brand.example';

  it("serves the domain's own namespace on its Host, and stops when the domain is revoked", async () => {
    const brand = await svc.createOrganization('Brand');
    const registered = await svc.admin('POST', `/organizations/${brand.id}/custom-domains`, { domainName: DOMAIN });
    expect(registered.statusCode, registered.body).toBe(201);
    const domainId = (registered.json() as { id: number }).id;

    // Not yet verified: links cannot be created on it.
    const refused = await svc.service('POST', '/urls', brand.apiKey, {
      url: 'https://brand.example/x',
      customDomainName: DOMAIN,
      customAlias: 'x',
    });
    expect(refused.statusCode).toBe(400);

    expect((await svc.admin('PUT', `/custom-domains/${domainId}/status`, { status: 'VERIFIED' })).statusCode).toBe(200);
    await createUrl({ url: 'https://brand.example/x', customDomainName: DOMAIN, customAlias: 'x' }, brand.apiKey);

    expect(await outcome('/x', { host: DOMAIN })).toEqual({ status: 302, location: 'https://brand.example/x' });
    expect(await outcome('/x', { host: 'GO.Brand.Example:443' })).toEqual({
      status: 302,
      location: 'https://brand.example/x',
    });
    // Namespaces are per domain: the code is free on the platform host...
    expect((await outcome('/x', { host: PLATFORM_HOST })).status).toBe(404);
    // ...and taking it there leaves the domain's link alone.
    await createUrl({ url: 'https://shop.example/platform-x', customAlias: 'x' });
    expect(await outcome('/x', { host: PLATFORM_HOST })).toEqual({
      status: 302,
      location: 'https://shop.example/platform-x',
    });
    expect(await outcome('/x', { host: DOMAIN })).toEqual({ status: 302, location: 'https://brand.example/x' });

    expect((await svc.admin('PUT', `/custom-domains/${domainId}/status`, { status: 'REVOKED' })).statusCode).toBe(200);
    const revoked = await visit('/x', { host: DOMAIN });
    expectHtml(revoked, 404);
    expect((await outcome('/x', { host: PLATFORM_HOST })).status).toBe(302);

    expect((await svc.admin('PUT', `/custom-domains/${domainId}/status`, { status: 'ACTIVE' })).statusCode).toBe(200);
    expect(await outcome('/x', { host: DOMAIN })).toEqual({ status: 302, location: 'https://brand.example/x' });
  });
});

/** Click rows of a link, oldest first. */
async function clickRows(linkId: number, linkType: 'url' | 'campaign' = 'url') {
  return svc.clickhouse<Record<string, unknown>>(
    `SELECT user_agent, device_type, os, browser, country, referrer_host, is_bot, host, cid, tracker, utm_source
       FROM clicks WHERE organization_id = {org:UInt64} AND link_type = {type:String} AND link_id = {id:UInt64}
      ORDER BY ts, event_id`,
    { org: org.id, type: linkType, id: linkId },
  );
}

async function clickTotal(linkId: number, linkType: 'url' | 'campaign' = 'url'): Promise<number> {
  const rows = await svc.clickhouse<{ clicks: string | number }>(
    `SELECT sum(clicks) AS clicks FROM link_click_totals
      WHERE organization_id = {org:UInt64} AND link_type = {type:String} AND link_id = {id:UInt64}
      GROUP BY organization_id, link_type, link_id`,
    { org: org.id, type: linkType, id: linkId },
  );
  return Number(rows[0]?.clicks ?? 0);
}

/** Waits for `n` click rows of the link, then for the bus to settle, and returns them. */
async function clicksSettle(linkId: number, n: number, linkType: 'url' | 'campaign' = 'url') {
  await svc.container.events.flush();
  await eventually(
    async () => (await clickRows(linkId, linkType)).length >= n,
    15_000,
    `${n} clicks of ${linkType} ${linkId}`,
  );
  // Generous: on a loaded machine (the services suite runs files side by side on one NATS and one
  // PostgreSQL) a consumer may sit out a retry back-off before it catches up.
  const drained = await svc.container.bus.drain(30_000);
  // On failure, say which consumer still holds messages.
  expect(drained, drained ? '' : `pending: ${JSON.stringify((await svc.container.bus.stats()).pending)}`).toBe(true);
  return clickRows(linkId, linkType);
}

describe(`bots, preview fetchers and HEAD (${backend})`, () => {
  it('gives preview fetchers the share-preview page with escaped og:* and twitter:card tags', async () => {
    const link = await createUrl({
      url: 'https://shop.example/preview',
      ogTitle: '<b>"Sale" & more</b>',
      ogDescription: 'Up to 50% off',
      ogImageUrl: 'https://cdn.shop.example/og.png',
    });
    for (const ua of PREVIEW_FETCHERS) {
      const res = await visit(`/${link.shortCode}`, { ua });
      expectHtml(res, 200);
      expect(res.headers.location, ua).toBeUndefined();
      expect(res.body).toContain('<meta property="og:title" content="&lt;b&gt;&quot;Sale&quot; &amp; more&lt;/b&gt;">');
      expect(res.body).toContain('<meta property="og:description" content="Up to 50% off">');
      expect(res.body).toContain('<meta property="og:image" content="https://cdn.shop.example/og.png">');
      expect(res.body).toContain('<meta name="twitter:card" content="summary_large_image">');
      expect(res.body).not.toContain('<b>"Sale"');
    }
    const rows = await clicksSettle(link.id, PREVIEW_FETCHERS.length);
    expect(rows).toHaveLength(PREVIEW_FETCHERS.length);
    expect(rows.map((r) => r.is_bot)).toEqual(PREVIEW_FETCHERS.map(() => 1));
    expect(await clickTotal(link.id)).toBe(0);
  });

  it('redirects and counts people in in-app browsers (KakaoTalk, LINE, NAVER, Daum, Snapchat, Teams)', async () => {
    const link = await createUrl({ url: 'https://shop.example/in-app', ogTitle: 'Preview' });
    for (const ua of IN_APP_BROWSERS) {
      expect(await outcome(`/${link.shortCode}`, { ua }), ua).toEqual({
        status: 302,
        location: 'https://shop.example/in-app',
      });
    }
    const rows = await clicksSettle(link.id, IN_APP_BROWSERS.length);
    expect(rows.map((r) => r.is_bot)).toEqual(IN_APP_BROWSERS.map(() => 0));
    expect(await clickTotal(link.id)).toBe(IN_APP_BROWSERS.length);
  });

  it('answers HEAD like GET without recording a click', async () => {
    const link = await createUrl({ url: 'https://shop.example/head', utmSource: 'x' });
    const head = await visit(`/${link.shortCode}`, { method: 'HEAD' });
    expect(head.statusCode).toBe(302);
    expect(head.headers.location).toBe('https://shop.example/head?utm_source=x');
    expect(head.body).toBe('');
    expect((await visit('/NoSuchCode2', { method: 'HEAD' })).statusCode).toBe(404);
    // One GET afterwards: once it is in ClickHouse and the bus is idle, HEAD's would be too.
    await visit(`/${link.shortCode}`);
    const rows = await clicksSettle(link.id, 1);
    expect(rows).toHaveLength(1);
    expect(await clickTotal(link.id)).toBe(1);
  });
});

describe(`click enrichment (${backend})`, () => {
  it('records device, OS, browser, country, referrer host and the bot flag; totals count people only', async () => {
    const link = await createUrl({ url: 'https://shop.example/enriched' });
    const path = `/${link.shortCode}`;
    const visits: Visit[] = [
      { ua: UA.iPhone, remoteAddress: '211.234.10.1', referer: 'https://m.facebook.com/story?id=1' },
      { ua: UA.iPad, remoteAddress: '211.234.10.1' },
      { ua: UA.desktop, remoteAddress: '203.0.113.7' },
      { ua: UA.curl, remoteAddress: '203.0.113.8' },
      { ua: 'facebookexternalhit/1.1', remoteAddress: '203.0.113.9' },
      { ua: UA.desktop, method: 'HEAD' },
    ];
    for (const v of visits) {
      const res = await visit(path, v);
      expect(res.statusCode).toBe(v.ua === 'facebookexternalhit/1.1' ? 200 : 302);
    }
    const rows = await clicksSettle(link.id, 5);
    expect(rows).toHaveLength(5);
    const byAgent = new Map(rows.map((r) => [r.user_agent, r]));
    expect(byAgent.get(UA.iPhone)).toMatchObject({
      device_type: 'Mobile',
      os: 'iOS',
      browser: 'Mobile Safari',
      country: 'KR',
      referrer_host: 'm.facebook.com',
      is_bot: 0,
      host: PLATFORM_HOST,
    });
    expect(byAgent.get(UA.iPad)).toMatchObject({
      device_type: 'Tablet',
      os: 'iOS',
      country: 'KR',
      referrer_host: '',
      is_bot: 0,
    });
    expect(byAgent.get(UA.desktop)).toMatchObject({
      device_type: 'Desktop',
      os: 'Windows',
      browser: 'Chrome',
      is_bot: 0,
    });
    expect(byAgent.get(UA.curl)).toMatchObject({ is_bot: 1 });
    expect(byAgent.get('facebookexternalhit/1.1')).toMatchObject({ is_bot: 1 });
    expect(await clickTotal(link.id)).toBe(3);
  });

  it("records a campaign click with its cid, tracker and the click's utm_source", async () => {
    const alias = unique('tracked');
    const { id: campaignId } = await svc.createCampaign(org, {
      name: 'Tracked',
      alias,
      originalUrl: 'https://shop.example/tracked',
    });
    expect((await outcome(`/${alias}?cid=u1&tracker=t1&utm_source=kakao`)).status).toBe(302);
    const [row] = await clicksSettle(campaignId, 1, 'campaign');
    expect(row).toMatchObject({ cid: 'u1', tracker: 't1', utm_source: 'kakao', is_bot: 0 });
    expect(await clickTotal(campaignId, 'campaign')).toBe(1);
  });
});

describe(`phones (${backend})`, () => {
  it('sends phones to mobileTargetUrl and desktops to originalUrl', async () => {
    const link = await createUrl({
      url: 'https://shop.example/desktop',
      mobileTargetUrl: 'https://m.shop.example/home',
    });
    expect(await outcome(`/${link.shortCode}`, { ua: UA.iPhone })).toEqual({
      status: 302,
      location: 'https://m.shop.example/home',
    });
    expect(await outcome(`/${link.shortCode}`, { ua: UA.android })).toEqual({
      status: 302,
      location: 'https://m.shop.example/home',
    });
    expect(await outcome(`/${link.shortCode}`, { ua: UA.desktop })).toEqual({
      status: 302,
      location: 'https://shop.example/desktop',
    });
  });

  it('sends phones to originalUrl when the link has no mobileTargetUrl', async () => {
    const link = await createUrl({ url: 'https://shop.example/everyone' });
    expect(await outcome(`/${link.shortCode}`, { ua: UA.iPhone })).toEqual({
      status: 302,
      location: 'https://shop.example/everyone',
    });
  });
});

/**
 * Requests `path` twice and tells whether the second was a cache hit that loaded nothing. Retried
 * by the callers: an instance also hears its own broadcast of an earlier write (over NATS, a few
 * milliseconds later), which may drop the entry in between.
 */
async function secondRequestIsAHit(
  path: string,
  expected: { status: number; location?: string },
  on: TestService = svc,
) {
  const cache = on.container.deps.redirect.cache;
  expect(await outcome(path, {}, on)).toEqual(expected);
  const before = cache.stats();
  expect(await outcome(path, {}, on)).toEqual(expected);
  const after = cache.stats();
  return after.hits === before.hits + 1 && after.misses === before.misses;
}

describe(`link cache (${backend})`, () => {
  it('answers the second request for a code from the cache', async () => {
    const link = await createUrl({ url: 'https://shop.example/cached' });
    const expected = { status: 302, location: 'https://shop.example/cached' };
    await eventually(() => secondRequestIsAHit(`/${link.shortCode}`, expected), 5_000, 'a cache hit');
  });

  it('caches unknown codes, and a link created with that alias resolves at once', async () => {
    const alias = unique('later');
    await eventually(
      () => secondRequestIsAHit(`/${alias}`, { status: 404, location: undefined }),
      5_000,
      'a cached 404',
    );
    await createUrl({ url: 'https://shop.example/later', customAlias: alias });
    expect(await outcome(`/${alias}`)).toEqual({ status: 302, location: 'https://shop.example/later' });
  });

  it('answers a stampede of 50 concurrent requests for an uncached code alike, then from the cache', async () => {
    const link = await createUrl({ url: 'https://shop.example/stampede' });
    const expected = { status: 302, location: 'https://shop.example/stampede' };
    const results = await Promise.all(Array.from({ length: 50 }, () => outcome(`/${link.shortCode}`)));
    expect(results).toEqual(Array(50).fill(expected));
    await eventually(() => secondRequestIsAHit(`/${link.shortCode}`, expected), 5_000, 'a cache hit');
  });
});

describe.runIf(backend === 'services')('two instances: invalidation through the bus', () => {
  let other: TestService;

  beforeAll(async () => {
    other = await startService(svc.isolation, { PUBLIC_BASE_URL: `https://${PLATFORM_HOST}` });
  });

  afterAll(async () => {
    await other?.close();
  });

  it("an update or delete on one instance reaches the other's cache", async () => {
    const link = await createUrl({ url: 'https://shop.example/v1' });
    const path = `/${link.shortCode}`;
    const v1 = { status: 302, location: 'https://shop.example/v1' };
    await eventually(() => secondRequestIsAHit(path, v1, other), 5_000, 'the link cached on the other instance');

    const updated = await svc.service('PUT', `/urls/${link.id}`, org.apiKey, {
      originalUrl: 'https://shop.example/v2',
    });
    expect(updated.statusCode, updated.body).toBe(200);
    await eventually(
      async () => (await outcome(path, {}, other)).location === 'https://shop.example/v2',
      5_000,
      'the update on the other instance',
    );

    expect((await svc.service('DELETE', `/urls/${link.id}`, org.apiKey)).statusCode).toBe(204);
    await eventually(
      async () => (await outcome(path, {}, other)).status === 404,
      5_000,
      'the delete on the other instance',
    );
  });

  it('a domain revoked through one instance stops serving on the other', async () => {
    const brand = await svc.createOrganization('Brand2');
    const domain = 'links.brand2.example';
    const registered = await svc.admin('POST', `/organizations/${brand.id}/custom-domains`, { domainName: domain });
    const domainId = (registered.json() as { id: number }).id;
    expect((await svc.admin('PUT', `/custom-domains/${domainId}/status`, { status: 'VERIFIED' })).statusCode).toBe(200);
    await createUrl({ url: 'https://brand2.example/a', customDomainName: domain, customAlias: 'a' }, brand.apiKey);
    await eventually(
      async () => (await outcome('/a', { host: domain }, other)).status === 302,
      5_000,
      'the domain on the other instance',
    );
    expect((await svc.admin('PUT', `/custom-domains/${domainId}/status`, { status: 'REVOKED' })).statusCode).toBe(200);
    await eventually(
      async () => (await outcome('/a', { host: domain }, other)).status === 404,
      5_000,
      'the revocation on the other instance',
    );
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
    down = await startService(downIsolation, {
      PUBLIC_BASE_URL: `https://${PLATFORM_HOST}`,
      DATA_DIR: svc.isolation.dataDir,
    });
    admin = postgres(servicesEnv.postgresAdminUrl, { max: 1, onnotice: () => {} });
    dbName = new URL(downIsolation.env.DATABASE_URL!).pathname.slice(1);
  });

  afterAll(async () => {
    await admin?.unsafe(`alter database "${dbName}" allow_connections true`).catch(() => {});
    await admin?.end();
    await down?.close();
    await downIsolation?.dispose();
  });

  it('keeps redirecting cached links, answers 503 for uncached ones, and recovers', async () => {
    const owner = await down.createOrganization('Resilient');
    const code = (await down.createLink(owner, { url: 'https://shop.example/resilient' })).shortCode;
    const uncached = (await down.createLink(owner, { url: 'https://shop.example/uncached' })).shortCode;
    expect(await outcome(`/${code}`, {}, down)).toEqual({ status: 302, location: 'https://shop.example/resilient' });

    try {
      await admin.unsafe(`alter database "${dbName}" allow_connections false`);
      await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${dbName} and pid <> pg_backend_pid()`;

      expect(await outcome(`/${code}`, {}, down)).toEqual({ status: 302, location: 'https://shop.example/resilient' });
      const failed = await visit(`/${uncached}`, {}, down);
      expectHtml(failed, 503);
      expect(failed.headers['retry-after']).toBe('5');
    } finally {
      await admin.unsafe(`alter database "${dbName}" allow_connections true`);
    }
    await eventually(
      async () => (await outcome(`/${uncached}`, {}, down)).status === 302,
      15_000,
      'the uncached link once PostgreSQL is back',
    );
  }, 60_000);
});
