// Tenancy across the Service API: an organization never reads, changes, deletes, lists or links
// another organization's short URLs, campaigns, mobile apps or custom domains. Another
// organization's id is answered exactly like an unknown one: 404, never 403, and nothing of the
// owner's data in the body.
import { beforeAll, describe, expect, it } from 'vitest';
import { serviceForFile } from './support/service.js';

type Json = Record<string, unknown>;

interface Tenant {
  name: string;
  apiKey: string;
  iosApp: Json & { id: number };
  androidApp: Json & { id: number };
  url: Json & { id: number };
  campaign: Json & { id: number };
  domain: Json & { id: number };
}

let a: Tenant;
let b: Tenant;
/** Strings that identify A's data; none may appear in an answer to B. */
let aMarkers: string[];

async function expectStatus(res: { statusCode: number; body: string }, status: number, what: string) {
  if (res.statusCode !== status) throw new Error(`${what}: expected ${status}, got ${res.statusCode} ${res.body}`);
}

/** A tenant with a linked short URL and campaign, two apps and a usable custom domain. */
async function createTenant(label: string): Promise<Tenant> {
  const name = `Tenant ${label}`;
  const lower = label.toLowerCase();
  const org = await svc.createOrganization(name, 'PRO');
  const post = async (url: string, body: Json) => {
    const res = await svc.service('POST', url, org.apiKey, body);
    await expectStatus(res, 201, `POST ${url}`);
    return res.json() as Json & { id: number };
  };
  const domainRes = await svc.admin('POST', `/organizations/${org.id}/custom-domains`, {
    domainName: `links.${lower}-secret.com`,
  });
  await expectStatus(domainRes, 201, 'custom domain');
  const domainId = (domainRes.json() as { id: number }).id;
  const verified = await svc.admin('PUT', `/custom-domains/${domainId}/status`, { status: 'VERIFIED' });
  await expectStatus(verified, 200, 'domain status');

  const iosApp = await post('/mobile-apps', {
    platform: 'IOS',
    appName: `${label} Secret iOS App`,
    bundleId: `com.${lower}secret.ios`,
    teamId: `${label.toUpperCase()}SECRET00`.slice(0, 10),
    scheme: `${lower}secret`,
    appIconUrl: `https://cdn.${lower}-secret.com/icon.png`,
  });
  const androidApp = await post('/mobile-apps', {
    platform: 'ANDROID',
    appName: `${label} Secret Android App`,
    bundleId: `com.${lower}secret.android`,
  });
  const url = await post('/urls', {
    url: `https://${lower}-secret-destination.example/landing`,
    title: `${label} secret title`,
    iosAppId: iosApp.id,
    androidAppId: androidApp.id,
  });
  const campaign = await post('/campaigns', {
    name: `${label} Secret Campaign`,
    originalUrl: `https://${lower}-secret-campaign.example/sale`,
    iosAppId: iosApp.id,
    androidAppId: androidApp.id,
    customDomainName: `links.${lower}-secret.com`,
  });
  const domain = (await svc.service('GET', `/custom-domains/${domainId}`, org.apiKey)).json() as Json & { id: number };
  return { name, apiKey: org.apiKey, iosApp, androidApp, url, campaign, domain };
}

const svc = serviceForFile({ PUBLIC_BASE_URL: 'https://sgnp.example' });

beforeAll(async () => {
  a = await createTenant('Aaa');
  b = await createTenant('Bbb');
  aMarkers = [
    a.url.originalUrl,
    a.url.shortCode,
    a.url.title,
    a.campaign.originalUrl,
    a.campaign.name,
    a.campaign.alias,
    a.iosApp.appName,
    a.iosApp.bundleId,
    a.iosApp.apiKey,
    a.iosApp.path,
    a.androidApp.appName,
    a.androidApp.apiKey,
    a.domain.domainName,
  ].map(String);
});

/**
 * Everything A sees of its resources, to compare before and after B's attempts. Clicks on A's
 * link (an earlier test follows it) reach clickCount asynchronously: the pipeline is drained
 * first, so two snapshots differ only by what B's requests did.
 */
async function snapshotOfA() {
  await svc.container.events.flush();
  expect(await svc.container.bus.drain(10_000)).toBe(true);
  const read = async (url: string) => {
    const res = await svc.service('GET', url, a.apiKey);
    await expectStatus(res, 200, `GET ${url} as A`);
    return res.json() as Json;
  };
  return {
    url: await read(`/urls/${a.url.id}`),
    campaign: await read(`/campaigns/${a.campaign.id}`),
    iosApp: await read(`/mobile-apps/${a.iosApp.id}`),
    androidApp: await read(`/mobile-apps/${a.androidApp.id}`),
    domain: await read(`/custom-domains/${a.domain.id}`),
  };
}

type Ids = Pick<Tenant, 'url' | 'campaign' | 'iosApp' | 'domain'>;

interface Route {
  name: string;
  method: 'GET' | 'PUT' | 'DELETE';
  path: (t: Ids) => string;
  body?: Json;
}

/** Every Service API route that takes a resource id, for reading. */
const READ_ROUTES: Route[] = [
  { name: 'GET urls/{id}', method: 'GET', path: (t) => `/urls/${t.url.id}` },
  { name: 'GET campaigns/{id}', method: 'GET', path: (t) => `/campaigns/${t.campaign.id}` },
  { name: 'GET mobile-apps/{id}', method: 'GET', path: (t) => `/mobile-apps/${t.iosApp.id}` },
  { name: 'GET custom-domains/{id}', method: 'GET', path: (t) => `/custom-domains/${t.domain.id}` },
  { name: 'GET urls/{id}/qr', method: 'GET', path: (t) => `/urls/${t.url.id}/qr` },
  { name: 'GET urls/{id}/stats', method: 'GET', path: (t) => `/urls/${t.url.id}/stats` },
  {
    name: 'GET urls/{id}/stats with dates',
    method: 'GET',
    path: (t) => `/urls/${t.url.id}/stats?startDate=2025-01-01&endDate=2025-01-31`,
  },
  { name: 'GET urls/{id}/app-install-stats', method: 'GET', path: (t) => `/urls/${t.url.id}/app-install-stats` },
  { name: 'GET campaigns/{id}/stats', method: 'GET', path: (t) => `/campaigns/${t.campaign.id}/stats` },
  {
    name: 'GET campaigns/{id}/app-install-stats',
    method: 'GET',
    path: (t) => `/campaigns/${t.campaign.id}/app-install-stats`,
  },
  {
    name: 'GET mobile-apps/{id}/install-stats',
    method: 'GET',
    path: (t) => `/mobile-apps/${t.iosApp.id}/install-stats`,
  },
];

/** ... and for changing (custom domains are read-only: their PUT and DELETE do not exist at all). */
const WRITE_ROUTES: Route[] = [
  {
    name: 'PUT urls/{id}',
    method: 'PUT',
    path: (t) => `/urls/${t.url.id}`,
    body: { originalUrl: 'https://hijack.example/u', title: 'hijacked', showAdPage: true, iosAppId: null },
  },
  {
    name: 'PUT campaigns/{id}',
    method: 'PUT',
    path: (t) => `/campaigns/${t.campaign.id}`,
    body: { name: 'Hijacked', originalUrl: 'https://hijack.example/c', androidAppId: null },
  },
  {
    name: 'PUT mobile-apps/{id}',
    method: 'PUT',
    path: (t) => `/mobile-apps/${t.iosApp.id}`,
    body: { appName: 'Hijacked', scheme: 'hijack', storeUrl: 'https://hijack.example/s' },
  },
  {
    name: 'PUT mobile-apps/{id} (platform)',
    method: 'PUT',
    path: (t) => `/mobile-apps/${t.iosApp.id}`,
    body: { platform: 'ANDROID' },
  },
  {
    name: 'PUT custom-domains/{id}',
    method: 'PUT',
    path: (t) => `/custom-domains/${t.domain.id}`,
    body: { status: 'REVOKED', domainName: 'hijack.example.com' },
  },
  { name: 'DELETE urls/{id}', method: 'DELETE', path: (t) => `/urls/${t.url.id}` },
  { name: 'DELETE campaigns/{id}', method: 'DELETE', path: (t) => `/campaigns/${t.campaign.id}` },
  { name: 'DELETE mobile-apps/{id}', method: 'DELETE', path: (t) => `/mobile-apps/${t.iosApp.id}` },
  { name: 'DELETE custom-domains/{id}', method: 'DELETE', path: (t) => `/custom-domains/${t.domain.id}` },
];

function expectNotFoundWithoutLeak(res: { statusCode: number; body: string }, what: string) {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(404);
  const body = JSON.parse(res.body) as Json;
  expect(body).toMatchObject({ status: 404, error: 'Not Found' });
  for (const marker of aMarkers) expect(res.body, `${what} leaks ${marker}`).not.toContain(marker);
}

describe("B using A's ids", () => {
  let before: Awaited<ReturnType<typeof snapshotOfA>>;

  beforeAll(async () => {
    before = await snapshotOfA();
  });

  for (const route of READ_ROUTES) {
    it(`${route.name} answers 404 with nothing of A`, async () => {
      const res = await svc.service(route.method, route.path(a), b.apiKey);
      expectNotFoundWithoutLeak(res, `B ${route.method} ${route.path(a)}`);
      // The same route does answer for B's own resource and for A's: the 404 is tenancy, not a missing route.
      for (const [who, tenant] of [
        ['B', b],
        ['A', a],
      ] as const) {
        const own = await svc.service(route.method, route.path(tenant), tenant.apiKey);
        expect([403, 404], `${who} ${route.path(tenant)}: ${own.body}`).not.toContain(own.statusCode);
      }
    });
  }

  for (const route of WRITE_ROUTES) {
    it(`${route.name} answers 404 with nothing of A and changes nothing`, async () => {
      const res = await svc.service(route.method, route.path(a), b.apiKey, route.body);
      expectNotFoundWithoutLeak(res, `B ${route.method} ${route.path(a)}`);
      expect(await snapshotOfA()).toEqual(before);
    });
  }

  it("a route that answers 404 for an unknown id answers the same body shape for A's id", async () => {
    // Same status and code for "not yours" and "does not exist": the answer reveals no existence.
    for (const [path, unknown] of [
      [`/urls/${a.url.id}`, '/urls/987654321'],
      [`/campaigns/${a.campaign.id}`, '/campaigns/987654321'],
      [`/mobile-apps/${a.iosApp.id}`, '/mobile-apps/987654321'],
      [`/custom-domains/${a.domain.id}`, '/custom-domains/987654321'],
      [`/urls/${a.url.id}/stats`, '/urls/987654321/stats'],
    ] as const) {
      const theirs = (await svc.service('GET', path, b.apiKey)).json();
      const missing = (await svc.service('GET', unknown, b.apiKey)).json();
      expect(theirs.code, path).toBe(missing.code);
      expect(theirs.status).toBe(missing.status);
    }
  });

  it("leaves every one of A's resources as it was after all of B's attempts", async () => {
    for (const route of [...READ_ROUTES, ...WRITE_ROUTES]) {
      await svc.service(route.method, route.path(a), b.apiKey, route.body);
    }
    expect(await snapshotOfA()).toEqual(before);
    expect(before.url).toMatchObject({ iosAppId: a.iosApp.id, androidAppId: a.androidApp.id, showAdPage: false });
    expect(before.campaign).toMatchObject({ androidAppId: a.androidApp.id, androidAppName: a.androidApp.appName });
    // A's link still resolves (B's DELETE did not free its code).
    const redirect = await svc.inject({
      method: 'GET',
      url: `/${a.url.shortCode as string}`,
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' },
    });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toContain(String(a.url.originalUrl));
  });
});

describe("B's lists", () => {
  const listIds = async (path: string, apiKey: string): Promise<number[]> => {
    const res = await svc.service('GET', path, apiKey);
    await expectStatus(res, 200, `GET ${path}`);
    return (res.json() as { content: Array<{ id: number }> }).content.map((x) => x.id);
  };

  it("never contain A's items, even when searching for them", async () => {
    for (const [path, own, theirs] of [
      ['/urls?size=100', b.url.id, a.url.id],
      [`/urls?keyword=${encodeURIComponent('aaa-secret')}`, undefined, a.url.id],
      [`/urls?keyword=${encodeURIComponent(String(a.url.shortCode))}`, undefined, a.url.id],
      ['/campaigns?size=100', b.campaign.id, a.campaign.id],
      [`/campaigns?search=${encodeURIComponent('Aaa Secret')}`, undefined, a.campaign.id],
      [`/campaigns?search=${encodeURIComponent(String(a.campaign.alias))}`, undefined, a.campaign.id],
      ['/mobile-apps?size=100', b.iosApp.id, a.iosApp.id],
      [`/mobile-apps?search=${encodeURIComponent('Aaa Secret')}`, undefined, a.iosApp.id],
      ['/custom-domains?size=100', b.domain.id, a.domain.id],
      [`/custom-domains?search=${encodeURIComponent('aaa-secret')}`, undefined, a.domain.id],
      ['/custom-domains?status=VERIFIED', b.domain.id, a.domain.id],
    ] as const) {
      const ids = await listIds(path, b.apiKey);
      expect(ids, path).not.toContain(theirs);
      if (own !== undefined) expect(ids, path).toContain(own);
      // The same search finds A's item for A: the filter is not simply broken.
      expect(await listIds(path, a.apiKey), `${path} as A`).toContain(theirs);
    }
    const all = await Promise.all(
      ['/urls?size=100', '/campaigns?size=100', '/mobile-apps?size=100', '/custom-domains?size=100'].map(
        async (p) => (await svc.service('GET', p, b.apiKey)).body,
      ),
    );
    for (const body of all) for (const marker of aMarkers) expect(body).not.toContain(marker);
  });

  it("the verified-domains array of B never contains A's domain", async () => {
    const res = await svc.service('GET', '/custom-domains/verified', b.apiKey);
    expect(res.statusCode).toBe(200);
    const ids = (res.json() as Array<{ id: number }>).map((d) => d.id);
    expect(ids).toEqual([b.domain.id]);
    expect(res.body).not.toContain(String(a.domain.domainName));
    const theirs = (await svc.service('GET', '/custom-domains/verified', a.apiKey)).json() as Array<{ id: number }>;
    expect(theirs.map((d) => d.id)).toEqual([a.domain.id]);
  });
});

describe("B linking A's apps or domain", () => {
  it("refuses A's apps on B's new short URL or campaign, and on updates", async () => {
    for (const body of [
      { url: 'https://b.example/x', iosAppId: a.iosApp.id },
      { url: 'https://b.example/x', androidAppId: a.androidApp.id },
    ]) {
      const res = await svc.service('POST', '/urls', b.apiKey, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      for (const marker of aMarkers) expect(res.body).not.toContain(marker);
    }
    for (const body of [
      { name: 'B steals', originalUrl: 'https://b.example/c', iosAppId: a.iosApp.id },
      { name: 'B steals', originalUrl: 'https://b.example/c', androidAppId: a.androidApp.id },
    ]) {
      expect((await svc.service('POST', '/campaigns', b.apiKey, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await svc.service('PUT', `/urls/${b.url.id}`, b.apiKey, { iosAppId: a.iosApp.id })).statusCode).toBe(400);
    expect(
      (await svc.service('PUT', `/campaigns/${b.campaign.id}`, b.apiKey, { androidAppId: a.androidApp.id })).statusCode,
    ).toBe(400);
    // B's own links still point at B's apps.
    expect((await svc.service('GET', `/urls/${b.url.id}`, b.apiKey)).json()).toMatchObject({
      iosAppId: b.iosApp.id,
      androidAppId: b.androidApp.id,
    });
    expect((await svc.service('GET', `/campaigns/${b.campaign.id}`, b.apiKey)).json()).toMatchObject({
      iosAppId: b.iosApp.id,
      androidAppId: b.androidApp.id,
    });
  });

  it("refuses A's verified domain on B's short URL or campaign", async () => {
    const domainName = String(a.domain.domainName);
    expect(
      (await svc.service('POST', '/urls', b.apiKey, { url: 'https://b.example/d', customDomainName: domainName }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await svc.service('POST', '/campaigns', b.apiKey, {
          name: 'B on A domain',
          originalUrl: 'https://b.example/d',
          customDomainName: domainName,
        })
      ).statusCode,
    ).toBe(400);
    // ... while A may use it.
    const own = await svc.service('POST', '/urls', a.apiKey, {
      url: 'https://a.example/d',
      customDomainName: domainName,
    });
    expect(own.statusCode).toBe(201);
    expect(own.json().shortUrl).toMatch(new RegExp(`^https://${domainName.replace(/\./g, '\\.')}/`));
  });

  it("a platform change of B's app is judged by B's links only", async () => {
    // A's links use A's apps; B's unlinked app may change platform regardless.
    const res = await svc.service('POST', '/mobile-apps', b.apiKey, {
      platform: 'IOS',
      appName: 'B Free App',
      bundleId: 'com.bbb.free',
    });
    expect(res.statusCode).toBe(201);
    const put = await svc.service('PUT', `/mobile-apps/${res.json().id}`, b.apiKey, { platform: 'ANDROID' });
    expect(put.statusCode).toBe(200);
    // A's linked app may not.
    expect(
      (await svc.service('PUT', `/mobile-apps/${a.iosApp.id}`, a.apiKey, { platform: 'ANDROID' })).statusCode,
    ).toBe(409);
  });
});

describe('the owner still controls its resources', () => {
  it("B's own DELETEs answer 204 and A's resources stay", async () => {
    const before = await snapshotOfA();
    for (const path of [`/urls/${b.url.id}`, `/campaigns/${b.campaign.id}`, `/mobile-apps/${b.iosApp.id}`]) {
      const res = await svc.service('DELETE', path, b.apiKey);
      expect(res.statusCode, path).toBe(204);
      expect((await svc.service('GET', path, b.apiKey)).statusCode).toBe(404);
    }
    expect(await snapshotOfA()).toEqual(before);
  });
});
