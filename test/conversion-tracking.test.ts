// Conversion tracking (a link's `conversionTracking`): a desktop click, which gets a plain 302 and
// no landing page, leaves with a click id in its destination's address (`signpost_token`), and the
// web SDK on that page resolves it and opens its session with it, so the goals and revenue it
// reports count for the click and the variant it was sent to in destinationStats, as a phone's
// deep-link token does. Everything a visitor and a page do here goes over the real port: the
// clicks (the redirect's fast path and its router path alike) and the SDK's own calls.
import { beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { createApps, type Apps, UA, type Org } from './support/deep-links.js';
import { rawRequest, type RawAnswer } from './support/raw-http.js';
import { eventually, serviceForFile } from './support/service.js';

const HOST = 'sgnp.example';
const A = 'https://shop.example/landing-a';
const B = 'https://shop.example/landing-b';
const CLICKS = 30;

// Loopback is the trusted proxy: each click's X-Forwarded-For is its visitor, as behind a load balancer.
const svc = serviceForFile({
  PUBLIC_BASE_URL: `https://${HOST}`,
  PORT: '0',
  HOST: '127.0.0.1',
  TRUST_PROXY: 'loopback',
});
let port: number;
let org: Org;
let rival: Org;
let apps: Apps;
let rivalApps: Apps;

beforeAll(async () => {
  port = Number(new URL(await svc.container.listen()).port);
  org = await svc.createOrganization('Web conversions', 'PRO');
  rival = await svc.createOrganization('Rival web conversions', 'PRO');
  for (const o of [org, rival]) {
    const res = await svc.admin('PUT', `/organizations/${o.id}/add-ons`, { userJourney: true, revenueAnalytics: true });
    expect(res.statusCode, res.body).toBe(200);
  }
  apps = await createApps(svc, org);
  rivalApps = await createApps(svc, rival, 'Rival');
});

const api = (method: string, url: string, body?: unknown) => svc.service(method, url, org.apiKey, body);

/** A desktop visitor's click on the real port, from its own address. */
const click = (path: string, visitor: number): Promise<RawAnswer> =>
  rawRequest(port, 'GET', path, {
    host: HOST,
    'user-agent': UA.desktop,
    'x-forwarded-for': `198.51.100.${visitor}, 127.0.0.1`,
  });

/** A call of the web SDK (src/web-sdk/tracking.ts) on the real port, as the browser makes it. */
const sdk = (method: string, path: string, appId: number, body?: unknown): Promise<RawAnswer> =>
  rawRequest(port, method, `/api/v1/sdk/web${path}`, { host: HOST, 'x-app-id': String(appId) }, body);

/** What the SDK does for a goal on a page whose address carries `token`: resolve, open a session, report. */
async function webGoal(token: string, goal: { goalType: string; goalValue: number; currency?: string }, appId: number) {
  const resolved = await sdk('GET', `/deeplink/resolve?token=${encodeURIComponent(token)}`, appId);
  const urlId = resolved.status === 200 ? (JSON.parse(resolved.body) as { url: { id: number } }).url.id : undefined;
  const session = await sdk('POST', '/journey/session/create', appId, {
    platform: 'WEB',
    deepLinkToken: token,
    landingUrl: `${A}?signpost_token=${token}`,
  });
  expect(session.status, session.body).toBe(201);
  const track = await sdk('POST', '/journey/session/funnel/track', appId, {
    sessionId: (JSON.parse(session.body) as { sessionId: string }).sessionId,
    stage: 'GOAL_COMPLETED',
    ...goal,
    ...(urlId === undefined ? {} : { urlId }),
  });
  expect(track.status, track.body).toBe(201);
  return resolved;
}

interface Entry {
  url: string;
  count: number;
  conversions: number;
  conversionRate: number;
  installs: number;
  goals: { goalType: string; count: number }[];
  revenue: { currency: string; amount: number; purchases: number }[];
}

const locationOf = (res: RawAnswer) => {
  expect(res.status, res.body).toBe(302);
  return new URL(String(res.headers.location));
};

describe(`conversion tracking (${backend})`, () => {
  it('ties web goals and revenue to the variant each desktop click was sent to', async () => {
    const created = await api('POST', '/urls', {
      url: 'https://shop.example/original',
      variants: [
        { url: A, weight: 50 },
        { url: B, weight: 50 },
      ],
      conversionTracking: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const link = created.json() as { id: number; shortUrl: string; conversionTracking: boolean };
    expect(link.conversionTracking).toBe(true);
    expect((await api('GET', `/urls/${link.id}`)).json()).toMatchObject({ conversionTracking: true });
    const path = new URL(link.shortUrl).pathname;

    // Each visitor leaves for a variant with a click id of its own in the address.
    const tokensOf: Record<string, string[]> = { [A]: [], [B]: [] };
    for (let i = 1; i <= CLICKS; i++) {
      const to = locationOf(await click(path, i));
      const token = to.searchParams.get('signpost_token');
      expect(token, to.href).toBeTruthy();
      const destination = `${to.origin}${to.pathname}`;
      expect([A, B]).toContain(destination);
      tokensOf[destination]!.push(token!);
    }
    const ofA = tokensOf[A]!;
    const ofB = tokensOf[B]!;
    expect(ofA.length).toBeGreaterThan(1);
    expect(ofB.length).toBeGreaterThan(1);
    expect(new Set([...ofA, ...ofB]).size).toBe(CLICKS);

    // Variant A: a purchase and a sign-up from two clicks (and a second purchase below); variant B: one purchase.
    const resolved = await webGoal(
      ofA[0]!,
      { goalType: 'purchase_KRW', goalValue: 12000, currency: 'KRW' },
      apps.ios.id,
    );
    expect(resolved.status, resolved.body).toBe(200);
    expect(JSON.parse(resolved.body)).toMatchObject({
      token: ofA[0],
      linkType: 'url',
      url: { id: link.id },
      campaign: null,
      deepLinkPath: null,
    });
    await webGoal(ofA[1]!, { goalType: 'signup', goalValue: 0 }, apps.ios.id);
    await webGoal(ofB[0]!, { goalType: 'purchase_USD', goalValue: 20, currency: 'USD' }, apps.android.id);

    // A click id altered by a visitor is refused, and its goal counts for no click.
    const t = ofB[1]!;
    const at = t.lastIndexOf('.') - 2;
    const forged = `${t.slice(0, at)}${t[at] === 'x' ? 'y' : 'x'}${t.slice(at + 1)}`;
    const refused = await webGoal(forged, { goalType: 'purchase_USD', goalValue: 999, currency: 'USD' }, apps.ios.id);
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.body)).toMatchObject({ status: 404 });
    // Another organization's page with our click id: not theirs to resolve, and counted for nobody.
    const rivals = await webGoal(ofB[1]!, { goalType: 'signup', goalValue: 0 }, rivalApps.ios.id);
    expect(rivals.status).toBe(404);
    // Sent last: once it is counted, so would the two above have been.
    await webGoal(ofA[0]!, { goalType: 'purchase_KRW', goalValue: 3000.5, currency: 'KRW' }, apps.ios.id);

    // Clicks and goals travel apart (their own consumers): wait for all of both.
    await svc.container.events.flush();
    const total = (e: Entry[], of: 'count' | 'conversions') => e.reduce((n, x) => n + x[of], 0);
    const goals = (e: Entry[]) => e.reduce((n, x) => n + x.goals.reduce((m, g) => m + g.count, 0), 0);
    const entries = await eventually(async () => {
      const res = await api('GET', `/urls/${link.id}/stats`);
      expect(res.statusCode, res.body).toBe(200);
      const e = res.json().destinationStats as Entry[];
      return total(e, 'count') === CLICKS && goals(e) >= 4 ? e : undefined;
    }, 20_000);
    const a = entries.find((e) => e.url === A)!;
    const b = entries.find((e) => e.url === B)!;
    expect([a.count, b.count]).toEqual([ofA.length, ofB.length]);
    expect(a).toMatchObject({
      conversions: 2,
      conversionRate: Math.round((2 / a.count) * 1000) / 10,
      installs: 0,
      goals: [
        { goalType: 'purchase_KRW', count: 2 },
        { goalType: 'signup', count: 1 },
      ],
      revenue: [{ currency: 'KRW', amount: 15000.5, purchases: 2 }],
    });
    expect(b).toMatchObject({
      conversions: 1,
      goals: [{ goalType: 'purchase_USD', count: 1 }],
      revenue: [{ currency: 'USD', amount: 20, purchases: 1 }],
    });
  });

  it('leaves the destination of a link without it as it was', async () => {
    const created = await api('POST', '/urls', { url: 'https://shop.example/plain?ref=nav#top' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().conversionTracking).toBe(false);
    const path = new URL(created.json().shortUrl).pathname;
    for (let i = 1; i <= 3; i++) {
      const res = await click(`${path}?utm_source=mail`, 100 + i);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('https://shop.example/plain?ref=nav&utm_source=mail#top');
    }
  });

  it('gives the ad page its click id, and a look that is no click (HEAD) none', async () => {
    const created = await api('POST', '/urls', {
      url: 'https://shop.example/deal',
      showAdPage: true,
      conversionTracking: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const path = new URL(created.json().shortUrl).pathname;
    const page = await click(path, 150);
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/https:\/\/shop\.example\/deal\?signpost_token=w1\.[\w.-]+/);
    const plain = await api('POST', '/urls', { url: 'https://shop.example/look', conversionTracking: true });
    const look = await rawRequest(port, 'HEAD', new URL(plain.json().shortUrl).pathname, {
      host: HOST,
      'user-agent': UA.desktop,
    });
    expect(look.status).toBe(302);
    expect(look.headers.location).toBe('https://shop.example/look');
  });

  it('gives the click of a protected link its id once the password is given', async () => {
    const created = await api('POST', '/urls', {
      url: 'https://shop.example/members',
      password: 'open sesame',
      conversionTracking: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const unlocked = await svc.inject({
      method: 'POST',
      url: new URL(created.json().shortUrl).pathname,
      headers: { host: HOST, 'user-agent': UA.desktop, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'password=open+sesame',
    });
    expect(unlocked.statusCode, unlocked.body).toBe(302);
    const token = new URL(String(unlocked.headers.location)).searchParams.get('signpost_token')!;
    const resolved = await sdk('GET', `/deeplink/resolve?token=${encodeURIComponent(token)}`, apps.ios.id);
    expect(resolved.status, resolved.body).toBe(200);
    expect(JSON.parse(resolved.body)).toMatchObject({ url: { id: created.json().id } });
  });

  it('works for a campaign too, and can be turned off again', async () => {
    const created = await api('POST', '/campaigns', {
      name: 'Tracked spring sale',
      originalUrl: 'https://shop.example/spring',
      conversionTracking: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const campaign = created.json() as { id: number; alias: string; conversionTracking: boolean };
    expect(campaign.conversionTracking).toBe(true);
    const token = locationOf(await click(`/${campaign.alias}?cid=user-1`, 200)).searchParams.get('signpost_token')!;
    const resolved = await sdk('GET', `/deeplink/resolve?token=${encodeURIComponent(token)}`, apps.ios.id);
    expect(resolved.status, resolved.body).toBe(200);
    expect(JSON.parse(resolved.body)).toMatchObject({ linkType: 'campaign', url: null, campaign: { id: campaign.id } });

    const off = await api('PUT', `/campaigns/${campaign.id}`, { conversionTracking: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().conversionTracking).toBe(false);
    await eventually(async () => {
      const res = await click(`/${campaign.alias}`, 201);
      return res.headers.location === 'https://shop.example/spring' ? true : undefined;
    }, 10_000);
  });
});
