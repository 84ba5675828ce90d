// The redirect fast path answers plain 302s on the real port before Fastify sees them; everything
// else (and every injected request) goes through the Fastify route. The same clicks sent both
// ways must look the same to the visitor (status, Location, headers) and to the statistics (the
// recorded click), including behind a trusted proxy.
import { rawRequest, type RawAnswer } from './support/raw-http.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { createApps, createCampaign, createUrl, unique, UA, type Org } from './support/deep-links.js';
import { eventually, serviceForFile } from './support/service.js';

const PLATFORM_HOST = 'sgnp.example';

let port: number;
let org: Org;

// Loopback is the trusted proxy: X-Forwarded-For and -Host count, as behind a load balancer.
const svc = serviceForFile({
  PUBLIC_BASE_URL: `https://${PLATFORM_HOST}`,
  PORT: '0',
  HOST: '127.0.0.1',
  TRUST_PROXY: 'loopback',
});

beforeAll(async () => {
  const address = await svc.container.listen();
  port = Number(new URL(address).port);
  org = await svc.createOrganization('Fast path');
});

type Answer = RawAnswer;

/** A request on the real port, headers exactly as given. */
const overTheWire = (method: string, path: string, headers: Record<string, string>) =>
  rawRequest(port, method, path, headers);

async function injected(method: 'GET' | 'HEAD', path: string, headers: Record<string, string>): Promise<Answer> {
  const res = await svc.inject({ method, url: path, headers, remoteAddress: '127.0.0.1' });
  return { status: res.statusCode, headers: res.headers as Answer['headers'], body: res.body };
}

const fastCount = () => svc.container.deps.metrics.get('redirects_fast_path_total');

/** What a visitor can tell apart: status, Location, caching, content type, body. */
const visible = (a: Answer) => ({
  status: a.status,
  location: a.headers.location,
  cacheControl: a.headers['cache-control'],
  contentType: a.headers['content-type'],
  contentLength: a.headers['content-length'],
  body: a.body,
});

async function bothWays(method: 'GET' | 'HEAD', path: string, headers: Record<string, string>) {
  // A HEAD (never counted) puts the link in the cache: the fast path takes cache hits only.
  await injected('HEAD', path, headers);
  const before = await fastCount();
  const wire = await overTheWire(method, path, headers);
  const viaWire = (await fastCount()) - before;
  const inject = await injected(method, path, headers);
  return { wire, inject, answeredInFront: viaWire === 1 };
}

const browser = (extra: Record<string, string> = {}) => ({ host: PLATFORM_HOST, 'user-agent': UA.desktop, ...extra });

describe(`redirect fast path (${backend})`, () => {
  it('answers a plain click in front of the router, exactly as the router would', async () => {
    const link = await createUrl(svc, org, {
      url: 'https://shop.example/sale?ref=nav',
      utmSource: 'mail',
      utmMedium: 'email',
    });
    const path = `/${link.shortCode}?utm_source=news&x=1&x=2`;
    const { wire, inject, answeredInFront } = await bothWays('GET', path, browser({ 'x-request-id': 'trace-abc.1' }));
    expect(answeredInFront).toBe(true);
    expect(visible(wire)).toEqual(visible(inject));
    expect(wire.status).toBe(302);
    const target = new URL(String(wire.headers.location));
    expect(target.searchParams.get('utm_source')).toBe('news');
    expect(target.searchParams.get('utm_medium')).toBe('email');
    expect(target.searchParams.getAll('x')).toEqual(['1', '2']);
    expect(wire.headers['x-request-id']).toBe('trace-abc.1');
    expect(inject.headers['x-request-id']).toBe('trace-abc.1');
    // Without the caller's id, both make one of the same form.
    const [a, b] = [
      await overTheWire('GET', `/${link.shortCode}`, browser()),
      await injected('GET', `/${link.shortCode}`, browser()),
    ];
    expect(String(a.headers['x-request-id'])).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    expect(String(b.headers['x-request-id'])).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
  });

  it('records the same click both ways: forwarded address and host, referrer, campaign cid and tracker, UTM', async () => {
    const campaign = await createCampaign(svc, org, { alias: unique('fast'), originalUrl: 'https://shop.example/c' });
    const headers = browser({
      'x-forwarded-for': '198.51.100.23, 127.0.0.1',
      referer: 'https://news.example/story',
      'accept-language': 'ko-KR,ko;q=0.9',
    });
    const path = `/${campaign.alias}?cid=user-7&tracker=email&utm_campaign=spring`;
    const { wire, inject, answeredInFront } = await bothWays('GET', path, headers);
    expect(answeredInFront).toBe(true);
    expect(visible(wire)).toEqual(visible(inject));
    await svc.container.events.flush();
    await svc.container.bus.drain(15_000);
    const rows = await eventually(
      async () => {
        const r = await svc.clickhouse<Record<string, unknown>>(
          `SELECT host, ip, referrer, user_agent, accept_language, cid, tracker, utm_campaign, utm_source, is_bot, device_type
           FROM clicks WHERE organization_id = {org:UInt64} AND link_type = 'campaign' AND link_id = {id:UInt64}`,
          { org: org.id, id: campaign.id },
        );
        return r.length === 2 && r;
      },
      15_000,
      'both clicks in ClickHouse',
    );
    expect(rows[0]).toEqual(rows[1]);
    expect(rows[0]).toMatchObject({
      host: PLATFORM_HOST,
      ip: '198.51.100.23',
      cid: 'user-7',
      tracker: 'email',
      utm_campaign: 'spring',
      referrer: 'https://news.example/story',
      is_bot: 0,
    });
  });

  it('serves a custom host named by a trusted X-Forwarded-Host the same way', async () => {
    const link = await createUrl(svc, org, { url: 'https://shop.example/fwd' });
    const headers = {
      host: '127.0.0.1:1',
      'x-forwarded-host': `evil.example, ${PLATFORM_HOST}`,
      'user-agent': UA.desktop,
    };
    const { wire, inject, answeredInFront } = await bothWays('GET', `/${link.shortCode}`, headers);
    expect(answeredInFront).toBe(true);
    expect(visible(wire)).toEqual(visible(inject));
    expect(wire.headers.location).toBe('https://shop.example/fwd');
  });

  it('leaves every other outcome to the router, which answers it the same as when injected', async () => {
    const apps = await createApps(svc, org, unique('Fast'));
    const deepLink = await createUrl(svc, org, {
      url: 'https://shop.example/product/9',
      iosAppId: apps.ios.id,
      iosDeepLinkPath: 'product/9',
    });
    // Whole seconds, as the API's expirationDate ('YYYY-MM-DD HH:mm:ss' in UTC) gives.
    const soon = new Date(Math.floor((Date.now() + 2_000) / 1000) * 1000);
    const expired = await createUrl(svc, org, { url: 'https://shop.example/old', expiresAt: soon });
    const ad = await createUrl(svc, org, { url: 'https://shop.example/ad', showAdPage: true });
    const plain = await createUrl(svc, org, { url: 'https://shop.example/plain' });
    await new Promise((r) => setTimeout(r, 2_100));
    const cases: [string, 'GET' | 'HEAD', string, Record<string, string>, number][] = [
      ['unknown code', 'GET', '/NoSuchCode1', browser(), 404],
      ['expired', 'GET', `/${expired.shortCode}`, browser(), 410],
      ['ad page', 'GET', `/${ad.shortCode}`, browser(), 200],
      [
        'share preview',
        'GET',
        `/${plain.shortCode}`,
        browser({ 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' }),
        200,
      ],
      ['HEAD', 'HEAD', `/${plain.shortCode}`, browser(), 302],
      ['trailing slash', 'GET', `/${plain.shortCode}/`, browser(), 302],
      ['own path', 'GET', '/healthz', browser(), 200],
      ['metrics', 'GET', '/metrics', browser(), 200],
    ];
    for (const [name, method, path, headers, status] of cases) {
      const { wire, inject, answeredInFront } = await bothWays(method, path, headers);
      expect(answeredInFront, name).toBe(false);
      expect(wire.status, name).toBe(status);
      expect(visible(wire).location, name).toEqual(visible(inject).location);
      expect(wire.headers['content-type'], name).toEqual(inject.headers['content-type']);
    }
    // The iPhone gets the deep-link landing page (each with its own token, so only the shape compares).
    const { wire, answeredInFront } = await bothWays(
      'GET',
      `/${deepLink.shortCode}`,
      browser({ 'user-agent': UA.iPhone }),
    );
    expect(answeredInFront).toBe(false);
    expect(wire.status).toBe(200);
    expect(wire.body).toContain('signpost:deeplink-token');
    // A desktop browser on the same link: the plain redirect, in front.
    expect((await bothWays('GET', `/${deepLink.shortCode}`, browser())).answeredInFront).toBe(true);
  });
});
