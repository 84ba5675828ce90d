// Mobile SDK: custom domains (/api/v1/sdk/mobile/custom-domains): the app's organization's domains
// in the Service API's records and wrapper, the verified list, and verify, which asks DNS at once
// (the background job is off here, so every change below is the route's own doing). X-App-ID and
// X-Mobile-App-API-Key on every call; another organization's domain is 404; per-app rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { startDnsServer, type TestDnsServer } from './support/dns-server.js';
import { expectError } from './support/error-body.js';
import { serviceForFile } from './support/service.js';

const RATE_LIMIT = 30;
const CNAME_TARGET = 'cname.sgnp.example';

let dns: TestDnsServer;

interface Org {
  id: number;
  apiKey: string;
}
interface App {
  id: number;
  apiKey: string;
}
interface Domain {
  id: number;
  domainName: string;
  status: string;
}

let org: Org;
let other: Org;
let app: App;
let otherApp: App;
/** The organization's domains in creation order. */
const mine: Domain[] = [];
let theirs: Domain;

const createApp = (owner: Org, platform: 'IOS' | 'ANDROID' = 'ANDROID'): Promise<App> =>
  svc.createApp(owner, { platform, appName: 'Domains App', bundleId: 'com.example.domains' });

async function createDomain(owner: Org, domainName: string, status?: string): Promise<Domain> {
  const res = await svc.admin('POST', `/organizations/${owner.id}/custom-domains`, { domainName });
  expect(res.statusCode, res.body).toBe(201);
  const domain = res.json() as Domain;
  if (!status || status === 'PENDING') return domain;
  const set = await svc.admin('PUT', `/custom-domains/${domain.id}/status`, { status });
  expect(set.statusCode).toBe(200);
  return set.json() as Domain;
}

function mobile(method: 'GET' | 'POST', path: string, caller: App | { id: unknown; apiKey?: string } | null = app) {
  const headers: Record<string, string> = {};
  if (caller) {
    headers['x-app-id'] = String(caller.id);
    if (caller.apiKey !== undefined) headers['x-mobile-app-api-key'] = caller.apiKey;
  }
  return svc.inject({ method, url: `/api/v1/sdk/mobile${path}`, headers });
}

beforeAll(async () => {
  dns = await startDnsServer();
});

afterAll(async () => {
  await dns?.close();
});

// Registered after the DNS server's hooks: started after it, stopped before it.
const svc = serviceForFile(() => ({
  PUBLIC_BASE_URL: 'https://sgnp.example',
  DNS_RESOLVER: dns.address,
  DOMAIN_VERIFY_INTERVAL_MS: '0',
  SDK_RATE_LIMIT_PER_SECOND: String(RATE_LIMIT),
}));

beforeAll(async () => {
  org = await svc.createOrganization('Mobile Domains');
  other = await svc.createOrganization('Other Org');
  app = await createApp(org);
  otherApp = await createApp(other, 'IOS');
  for (const [name, status] of [
    ['links.first.example', 'PENDING'],
    ['go.second.example', 'VERIFIED'],
    ['m.third.example', 'ACTIVE'],
    ['x.fourth.example', 'FAILED'],
    ['r.fifth.example', 'REVOKED'],
  ] as const) {
    mine.push(await createDomain(org, name, status));
  }
  theirs = await createDomain(other, 'go.theirs.example', 'VERIFIED');
});

describe(`mobile SDK custom domains (${backend})`, () => {
  describe('authentication', () => {
    const paths: Array<['GET' | 'POST', () => string]> = [
      ['GET', () => '/custom-domains'],
      ['GET', () => '/custom-domains/verified'],
      ['GET', () => `/custom-domains/${mine[0]!.id}`],
      ['POST', () => `/custom-domains/${mine[0]!.id}/verify`],
    ];

    it('answers 401 without the headers, with a wrong key, or for an unknown app', async () => {
      for (const [method, path] of paths) {
        expectError(await mobile(method, path(), null), 401, { code: 'APP_CREDENTIALS_MISSING' });
        expectError(await mobile(method, path(), { id: app.id }), 401, { code: 'APP_CREDENTIALS_MISSING' });
        expectError(await mobile(method, path(), { id: app.id, apiKey: 'spm_wrong' }), 401, {
          code: 'APP_CREDENTIALS_INVALID',
        });
        expectError(await mobile(method, path(), { id: 987_654, apiKey: app.apiKey }), 401, {
          code: 'APP_CREDENTIALS_INVALID',
        });
        // Another app's key does not open this app.
        expectError(await mobile(method, path(), { id: app.id, apiKey: otherApp.apiKey }), 401, {
          code: 'APP_CREDENTIALS_INVALID',
        });
      }
    });

    it('checks credentials before anything else: a bad query without them is still 401', async () => {
      expectError(await mobile('GET', '/custom-domains?size=0', null), 401);
      expectError(await mobile('GET', '/custom-domains/abc', null), 401);
    });
  });

  describe('GET /custom-domains', () => {
    it('answers exactly what the Service API answers for the same organization and query', async () => {
      for (const query of [
        '',
        '?size=2',
        '?size=2&page=1',
        '?status=ACTIVE',
        '?search=first',
        '?sort=domainName,asc',
      ]) {
        const sdk = await mobile('GET', `/custom-domains${query}`);
        const service = await svc.service('GET', `/custom-domains${query}`, org.apiKey);
        expect(sdk.statusCode, sdk.body).toBe(200);
        expect(sdk.json()).toEqual(service.json());
      }
    });

    it('pages in the Spring-style wrapper, newest first by default', async () => {
      const res = await mobile('GET', '/custom-domains?size=2&page=1');
      const page = res.json();
      expect(page).toMatchObject({
        totalElements: 5,
        totalPages: 3,
        size: 2,
        number: 1,
        first: false,
        last: false,
        numberOfElements: 2,
        empty: false,
        pageable: { pageNumber: 1, pageSize: 2, offset: 2, paged: true, unpaged: false },
      });
      expect(page.content.map((d: Domain) => d.id)).toEqual([mine[2]!.id, mine[1]!.id]);
      const last = (await mobile('GET', '/custom-domains?size=2&page=2')).json();
      expect(last).toMatchObject({ number: 2, last: true, numberOfElements: 1 });
      expect(last.content.map((d: Domain) => d.domainName)).toEqual(['links.first.example']);
      const beyond = (await mobile('GET', '/custom-domains?size=2&page=9')).json();
      expect(beyond).toMatchObject({ content: [], empty: true, numberOfElements: 0, totalElements: 5 });
    });

    it("shows only the app's organization's domains", async () => {
      const names = (await mobile('GET', '/custom-domains?size=100')).json().content.map((d: Domain) => d.domainName);
      expect(names).not.toContain(theirs.domainName);
      const theirNames = (await mobile('GET', '/custom-domains', otherApp))
        .json()
        .content.map((d: Domain) => d.domainName);
      expect(theirNames).toEqual([theirs.domainName]);
    });

    it('refuses a bad page, size, status or sort with 400', async () => {
      expectError(await mobile('GET', '/custom-domains?size=0'), 400, { field: 'size' });
      expectError(await mobile('GET', '/custom-domains?page=-1'), 400, { field: 'page' });
      expectError(await mobile('GET', '/custom-domains?status=DONE'), 400, { field: 'status' });
      expectError(await mobile('GET', '/custom-domains?sort=apiKey,asc'), 400, { field: 'sort' });
    });
  });

  describe('GET /custom-domains/{id} and /verified', () => {
    it("reads an own domain as the Service API does; another organization's id is 404", async () => {
      const res = await mobile('GET', `/custom-domains/${mine[1]!.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual((await svc.service('GET', `/custom-domains/${mine[1]!.id}`, org.apiKey)).json());
      expectError(await mobile('GET', `/custom-domains/${theirs.id}`), 404, { code: 'CUSTOM_DOMAIN_NOT_FOUND' });
      expectError(await mobile('GET', '/custom-domains/987654'), 404, { code: 'CUSTOM_DOMAIN_NOT_FOUND' });
      expectError(await mobile('GET', '/custom-domains/abc'), 400, { field: 'id' });
    });

    it('lists VERIFIED and ACTIVE domains of the organization as a plain array', async () => {
      const res = await mobile('GET', '/custom-domains/verified');
      expect(res.statusCode).toBe(200);
      const list = res.json();
      expect(Array.isArray(list)).toBe(true);
      expect(list.map((d: Domain) => [d.domainName, d.status]).sort()).toEqual([
        ['go.second.example', 'VERIFIED'],
        ['m.third.example', 'ACTIVE'],
      ]);
      expect(
        (await mobile('GET', '/custom-domains/verified', otherApp)).json().map((d: Domain) => d.domainName),
      ).toEqual([theirs.domainName]);
    });
  });

  describe('POST /custom-domains/{id}/verify', () => {
    it('asks DNS at once: still PENDING while the record is missing, VERIFIED as soon as it is there', async () => {
      const domain = await createDomain(org, 'verify.now.example');
      const missing = await mobile('POST', `/custom-domains/${domain.id}/verify`);
      expect(missing.statusCode, missing.body).toBe(200);
      expect(missing.json()).toMatchObject({
        id: domain.id,
        status: 'PENDING',
        cnameRecordName: 'verify.now.example',
        cnameRecordValue: CNAME_TARGET,
      });
      expect(dns.queries('verify.now.example')).toBe(1);

      dns.set('verify.now.example', { cname: CNAME_TARGET });
      const verified = await mobile('POST', `/custom-domains/${domain.id}/verify`);
      expect(verified.statusCode).toBe(200);
      expect(verified.json()).toEqual({
        ...(await svc.service('GET', `/custom-domains/${domain.id}`, org.apiKey)).json(),
        status: 'VERIFIED',
      });
      expect(dns.queries('verify.now.example')).toBe(2);
      // The record answered is the stored one.
      expect((await mobile('GET', `/custom-domains/${domain.id}`)).json().status).toBe('VERIFIED');
    });

    it('gives a FAILED domain another chance once its record is there', async () => {
      dns.set('x.fourth.example', { cname: CNAME_TARGET });
      const res = await mobile('POST', `/custom-domains/${mine[3]!.id}/verify`);
      expect(res.json().status).toBe('VERIFIED');
    });

    it("answers 404 for another organization's domain without asking DNS", async () => {
      const before = dns.queries(theirs.domainName);
      expectError(await mobile('POST', `/custom-domains/${theirs.id}/verify`), 404, {
        code: 'CUSTOM_DOMAIN_NOT_FOUND',
      });
      expect(dns.queries(theirs.domainName)).toBe(before);
    });

    it('leaves a domain as it was when the resolver cannot answer', async () => {
      const domain = await createDomain(org, 'servfail.now.example');
      dns.fail('servfail.now.example');
      const res = await mobile('POST', `/custom-domains/${domain.id}/verify`);
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe('PENDING');
    });
  });

  it(`limits each app to ${RATE_LIMIT} calls a second (429 with Retry-After), other apps unaffected`, async () => {
    const busy = await createApp(org);
    const answers = await Promise.all(
      Array.from({ length: RATE_LIMIT * 2 + 5 }, () => mobile('GET', '/custom-domains/verified', busy)),
    );
    const limited = answers.filter((r) => r.statusCode === 429);
    expect(limited.length).toBeGreaterThan(0);
    expectError(limited[0]!, 429, { code: 'RATE_LIMITED' });
    expect(limited[0]!.headers['retry-after']).toBeDefined();
    expect((await mobile('GET', '/custom-domains/verified', otherApp)).statusCode).toBe(200);
  });
});
