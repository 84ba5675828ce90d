// Conversions by destination (routing rules and A/B variants), as an API user reads them in a
// link's statistics: each destinationStats entry counts the goals, installs and revenue of the
// clicks sent there, tied to each click by its deep-link token: the app's funnel stages (the token
// is their session), the install its referrer matched, and goals of a web SDK session opened with
// the token. A conversion counts for its click whenever it comes; another organization's
// conversions carrying the same token count for nobody.
import { beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { type Apps, createApps, type Landing, mobile, query, tap, tapToLanding, UA } from './support/deep-links.js';
import { eventually, serviceForFile } from './support/service.js';

const svc = serviceForFile();
let org: { id: number; apiKey: string };
let rival: { id: number; apiKey: string };
let apps: Apps;
let rivalApps: Apps;

const A = 'https://shop.example/landing-a';
const B = 'https://shop.example/landing-b';

beforeAll(async () => {
  org = await svc.createOrganization('Variants', 'PRO');
  rival = await svc.createOrganization('Rival variants', 'PRO');
  for (const o of [org, rival]) {
    const res = await svc.admin('PUT', `/organizations/${o.id}/add-ons`, { userJourney: true, revenueAnalytics: true });
    expect(res.statusCode, res.body).toBe(200);
  }
  apps = await createApps(svc, org);
  rivalApps = await createApps(svc, rival, 'Rival');
});

const api = (method: string, url: string, body?: unknown) => svc.service(method, url, org.apiKey, body);

/** The variant a landing page's fallback follows (the rules and variants decide it). */
const variantOf = (landing: Landing) => (landing.fallbackUrl.startsWith(A) ? A : B);

/** A goal the app reports in the funnel session its token opened. */
async function appGoal(token: string, goalType: string, goalValue?: string, app = apps.android) {
  const res = await mobile(svc, app, 'POST', '/deeplink/funnel/track', {
    sessionId: token,
    stage: 'GOAL_COMPLETED',
    goalType,
    ...(goalValue === undefined ? {} : { goalValue }),
    timestamp: new Date().toISOString(),
  });
  expect(res.statusCode, res.body).toBe(200);
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

async function statsWhen(path: string, done: (entries: Entry[]) => boolean): Promise<Entry[]> {
  await svc.container.events.flush();
  return eventually(async () => {
    const res = await api('GET', path);
    expect(res.statusCode, res.body).toBe(200);
    const entries = res.json().destinationStats as Entry[];
    return done(entries) ? entries : undefined;
  }, 20_000);
}

describe(`conversions by destination (${backend})`, () => {
  it('tie goals, installs and revenue to the variant each click was sent to', async () => {
    const link = await api('POST', '/urls', {
      url: 'https://shop.example/original',
      androidAppId: apps.android.id,
      iosAppId: apps.ios.id,
      variants: [
        { url: A, weight: 50 },
        { url: B, weight: 50 },
      ],
    });
    expect(link.statusCode, link.body).toBe(201);
    const { id, shortUrl } = link.json() as { id: number; shortUrl: string };
    const path = new URL(shortUrl).pathname;

    // Forty Android phones, each its own address: each gets the landing page and its token.
    const landings: Landing[] = [];
    for (let i = 0; i < 40; i++)
      landings.push(await tapToLanding(svc, path, { ua: UA.pixel, ip: `198.51.100.${i + 1}` }));
    // Desktop clicks are plain redirects: counted, never tied to a conversion.
    for (let i = 0; i < 6; i++) {
      const res = await tap(svc, path, { ua: UA.desktop, ip: `192.0.2.${i + 1}` });
      expect(res.statusCode).toBe(302);
    }
    const ofA = landings.filter((l) => variantOf(l) === A);
    const ofB = landings.filter((l) => variantOf(l) === B);
    expect(ofA.length).toBeGreaterThan(0);
    expect(ofB.length).toBeGreaterThan(0);

    // Variant A: two purchases (one click buys twice), a sign-up, an install from its referrer.
    await appGoal(ofA[0]!.token, 'purchase_KRW', '12000');
    await appGoal(ofA[0]!.token, 'purchase_KRW', '3000.5');
    await appGoal(ofA[1]!.token, 'signup');
    const install = await mobile(
      svc,
      apps.android,
      'GET',
      `/deeplink/resolve-fingerprint?${query({ userAgent: UA.pixel, ipAddress: '192.0.2.200', referrer: `signpost_token=${ofA[2]!.token}` })}`,
    );
    expect(install.json()).toMatchObject({ matched: true, matchType: 'referrer' });
    // Variant B: a purchase from a web SDK session opened with the click's token.
    const session = await svc.inject({
      method: 'POST',
      url: '/api/v1/sdk/web/journey/session/create',
      headers: { 'x-app-id': String(apps.ios.id) },
      payload: { platform: 'WEB', deepLinkToken: ofB[0]!.token },
    });
    expect(session.statusCode, session.body).toBe(201);
    const goal = await svc.inject({
      method: 'POST',
      url: '/api/v1/sdk/web/journey/session/funnel/track',
      headers: { 'x-app-id': String(apps.ios.id) },
      payload: {
        sessionId: session.json().sessionId,
        stage: 'GOAL_COMPLETED',
        goalType: 'purchase_USD',
        goalValue: 20,
        currency: 'USD',
        urlId: id,
      },
    });
    expect(goal.statusCode, goal.body).toBe(201);
    // Another organization's app names a token of ours: it is theirs to count, not ours.
    await appGoal(ofB[1]!.token, 'signup', undefined, rivalApps.android);

    // Clicks and conversions travel apart (their own consumers): wait for all of both.
    const total = (e: Entry[], of: 'count' | 'conversions') => e.reduce((n, x) => n + x[of], 0);
    const entries = await statsWhen(
      `/urls/${id}/stats`,
      (e) => total(e, 'count') === 46 && total(e, 'conversions') === 4,
    );
    const a = entries.find((e) => e.url === A)!;
    const b = entries.find((e) => e.url === B)!;
    expect(a.count + b.count).toBe(46);
    expect(a).toMatchObject({
      conversions: 3,
      conversionRate: Math.round((3 / a.count) * 1000) / 10,
      installs: 1,
      goals: [
        { goalType: 'purchase_KRW', count: 2 },
        { goalType: 'signup', count: 1 },
      ],
      revenue: [{ currency: 'KRW', amount: 15000.5, purchases: 2 }],
    });
    expect(b).toMatchObject({
      conversions: 1,
      installs: 0,
      goals: [{ goalType: 'purchase_USD', count: 1 }],
      revenue: [{ currency: 'USD', amount: 20, purchases: 1 }],
    });
    // Every field of before is still there, as it was.
    expect(Object.keys(a).slice(0, 3)).toEqual(['url', 'count', 'percentage']);

    // The rival sees none of it on its own links either.
    const rivalLink = await svc.service('POST', '/urls', rival.apiKey, { url: A });
    const rivalStats = await svc.service('GET', `/urls/${rivalLink.json().id}/stats`, rival.apiKey);
    expect(rivalStats.json().destinationStats).toEqual([]);
  });

  it('count a conversion for its click however long after the click it comes', async () => {
    const link = await api('POST', '/urls', {
      url: 'https://shop.example/late',
      androidAppId: apps.android.id,
      variants: [
        { url: A, weight: 50 },
        { url: B, weight: 50 },
      ],
    });
    const { id } = link.json() as { id: number };
    // A click of twenty days ago, written as the pipeline writes it, and a purchase today.
    const token = 'Late0Click0Token00000001';
    const clickDay = new Date(Date.now() - 20 * 86_400_000);
    await svc.container.clickhouse.client.insert({
      table: 'clicks',
      values: [
        {
          event_id: '0190c6a0-0000-7000-8000-000000000001',
          ts: clickDay.toISOString().replace('T', ' ').replace('Z', ''),
          organization_id: org.id,
          link_type: 'url',
          link_id: id,
          device_type: 'Mobile',
          os: 'Android',
          browser: 'Chrome',
          destination_url: B,
          route: 'variant:1',
          deep_link_token: token,
        },
      ],
      format: 'JSONEachRow',
    });
    await appGoal(token, 'purchase_KRW', '500');
    const day = clickDay.toISOString().slice(0, 10);
    const entries = await statsWhen(`/urls/${id}/stats?startDate=${day}&endDate=${day}&timeZone=UTC`, (e) =>
      e.some((x) => x.conversions > 0),
    );
    expect(entries).toEqual([
      {
        url: B,
        count: 1,
        percentage: 100,
        conversions: 1,
        conversionRate: 100,
        installs: 0,
        goals: [{ goalType: 'purchase_KRW', count: 1 }],
        revenue: [{ currency: 'KRW', amount: 500, purchases: 1 }],
      },
    ]);
  });
});
