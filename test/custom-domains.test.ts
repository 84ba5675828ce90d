// Service API: custom domains (/api/v1/service/custom-domains). Domains are registered and their
// status set through the operator API; the Service API lists, filters, sorts and reads them in a
// Spring-style page wrapper, scoped to the caller's organization, and asks for their deletion,
// which the operator completes.
import { beforeAll, describe, expect, it } from 'vitest';
import { consoleMember } from './support/console-api.js';
import { serviceForFile } from './support/service.js';

const svc = serviceForFile({ PUBLIC_BASE_URL: 'https://sgnp.example' });

type Json = Record<string, unknown>;
type Domain = Json & { id: number; domainName: string; status: string };

const STATUSES = ['PENDING', 'VERIFIED', 'ACTIVE', 'FAILED', 'REVOKED'] as const;
const RECORD_FIELDS = [
  'id',
  'domainName',
  'ownerUsername',
  'status',
  'cnameRecordName',
  'cnameRecordValue',
  'createdAt',
  'deletionRequested',
  'deletionRequestedAt',
];
const WRAPPER_FIELDS = [
  'content',
  'totalElements',
  'totalPages',
  'size',
  'number',
  'first',
  'last',
  'numberOfElements',
  'empty',
  'pageable',
  'sort',
];
const PAGEABLE_FIELDS = ['pageNumber', 'pageSize', 'offset', 'sort', 'paged', 'unpaged'];
const MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

async function createDomain(orgId: number, domainName: string, status?: string): Promise<Domain> {
  const res = await svc.admin('POST', `/organizations/${orgId}/custom-domains`, { domainName });
  if (res.statusCode !== 201) throw new Error(`domain not created: ${res.statusCode} ${res.body}`);
  const domain = res.json() as Domain;
  if (!status || status === 'PENDING') return domain;
  const set = await svc.admin('PUT', `/custom-domains/${domain.id}/status`, { status });
  if (set.statusCode !== 200) throw new Error(`status not set: ${set.statusCode} ${set.body}`);
  return set.json() as Domain;
}

const ids = (items: Domain[]) => items.map((d) => d.id);

describe('custom domains of one organization', () => {
  let org: { id: number; apiKey: string };
  let other: { id: number; apiKey: string };
  /** In creation order. */
  const domains: Domain[] = [];
  let theirs: Domain;
  let theirsVerified: Domain;

  beforeAll(async () => {
    org = await svc.createOrganization('Domain Owner');
    other = await svc.createOrganization('Someone Else');
    // One domain per status, created in this order, plus a second ACTIVE one and a platform subdomain.
    for (const [name, status] of [
      ['links.alpha-shop.com', 'PENDING'],
      ['go.beta-news.io', 'VERIFIED'],
      ['ALPHA.example.org', 'ACTIVE'],
      ['c.gamma.net', 'FAILED'],
      ['r.delta.dev', 'REVOKED'],
      ['zeta.alpha-shop.com', 'ACTIVE'],
      ['owner.sgnp.example', 'VERIFIED'],
    ] as const) {
      domains.push(await createDomain(org.id, name, status));
    }
    theirs = await createDomain(other.id, 'alpha.elsewhere.com', 'PENDING');
    theirsVerified = await createDomain(other.id, 'verified.elsewhere.com', 'ACTIVE');
  });

  const list = (query = '', apiKey = org.apiKey) => svc.service('GET', `/custom-domains${query}`, apiKey);
  const content = async (query: string): Promise<Domain[]> => {
    const res = await list(query);
    expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
    return res.json().content;
  };

  describe('GET /custom-domains', () => {
    it('answers the Spring-style wrapper with exactly its documented fields', async () => {
      const res = await list();
      expect(res.statusCode).toBe(200);
      const page = res.json();
      expect(Object.keys(page).sort()).toEqual([...WRAPPER_FIELDS].sort());
      expect(Object.keys(page.pageable).sort()).toEqual([...PAGEABLE_FIELDS].sort());
      expect(page).toMatchObject({
        totalElements: 7,
        totalPages: 1,
        size: 20,
        number: 0,
        first: true,
        last: true,
        numberOfElements: 7,
        empty: false,
        pageable: { pageNumber: 0, pageSize: 20, offset: 0, paged: true, unpaged: false },
      });
      expect(page.content).toHaveLength(7);
    });

    it('renders each record with exactly the documented fields, createdAt to the minute', async () => {
      const items = await content('');
      for (const d of items) {
        expect(Object.keys(d).sort()).toEqual([...RECORD_FIELDS].sort());
        expect(d.createdAt).toMatch(MINUTE);
        expect(d.deletionRequested).toBe(false);
        expect(d.deletionRequestedAt).toBeNull();
        expect(typeof d.ownerUsername).toBe('string');
        expect((d.ownerUsername as string).length).toBeGreaterThan(0);
        expect(STATUSES).toContain(d.status);
      }
      const byName = new Map(items.map((d) => [d.domainName, d]));
      // Names are stored lower-case; external domains carry the CNAME to create, platform subdomains none.
      expect(byName.get('alpha.example.org')).toMatchObject({
        status: 'ACTIVE',
        cnameRecordName: 'alpha.example.org',
        cnameRecordValue: 'cname.sgnp.example',
      });
      expect(byName.get('owner.sgnp.example')).toMatchObject({
        status: 'VERIFIED',
        cnameRecordName: null,
        cnameRecordValue: null,
      });
      // What the operator API returned is what the Service API shows.
      for (const d of domains) expect(byName.get(d.domainName)).toEqual(d);
      // createdAt is the stored instant in UTC, cut to the minute.
      const rows = await svc.container.postgres.sql<{ id: number; created_at: Date }[]>`
        select id, created_at from custom_domains where id = any(${ids(domains)}::bigint[])`;
      expect(rows).toHaveLength(domains.length);
      for (const row of rows)
        expect(items.find((d) => d.id === row.id)!.createdAt).toBe(row.created_at.toISOString().slice(0, 16));
    });

    it('lists newest first by default (createdAt,desc)', async () => {
      const newestFirst = ids(domains).reverse();
      expect(ids(await content(''))).toEqual(newestFirst);
      expect(ids(await content('?sort=createdAt,desc'))).toEqual(newestFirst);
      expect(ids(await content('?sort=createdAt,asc'))).toEqual(ids(domains));
    });

    it('sorts by domainName and status in either direction', async () => {
      const names = domains.map((d) => d.domainName).sort();
      expect((await content('?sort=domainName,asc')).map((d) => d.domainName)).toEqual(names);
      expect((await content('?sort=domainName,desc')).map((d) => d.domainName)).toEqual([...names].reverse());
      // A field alone sorts ascending, as Spring does.
      expect((await content('?sort=domainName')).map((d) => d.domainName)).toEqual(names);
      const byStatusDesc = (await content('?sort=status,desc')).map((d) => d.status);
      expect(byStatusDesc).toEqual(
        domains
          .map((d) => d.status)
          .sort()
          .reverse(),
      );
      expect(byStatusDesc[0]).toBe('VERIFIED');
      const byStatusAsc = (await content('?sort=status,asc')).map((d) => d.status);
      expect(byStatusAsc).toEqual(domains.map((d) => d.status).sort());
    });

    it('refuses an unknown sort field or direction with 400', async () => {
      for (const sort of [
        'name,asc',
        'createdAt,up',
        'createdAt;drop table',
        'createdAt,desc;drop table domains',
        'createdAt,asc,extra',
        'constructor,asc',
        'toString',
        '__proto__,desc',
        'hasOwnProperty,asc',
        'id,asc',
        'created_at,asc',
        ',asc',
      ]) {
        const res = await list(`?sort=${encodeURIComponent(sort)}`);
        expect(res.statusCode, `sort=${sort}: ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({ status: 400, error: 'Bad Request' });
        expect(res.json().message).toContain('sort');
      }
    });

    it('filters by search: a partial, case-insensitive match on the domain name', async () => {
      expect(ids(await content('?search=alpha'))).toEqual(
        ids(domains.filter((d) => d.domainName.includes('alpha'))).reverse(),
      );
      expect((await content('?search=ALPHA-SHOP')).map((d) => d.domainName)).toEqual([
        'zeta.alpha-shop.com',
        'links.alpha-shop.com',
      ]);
      expect((await content('?search=.io')).map((d) => d.domainName)).toEqual(['go.beta-news.io']);
      expect(await content('?search=nowhere')).toEqual([]);
      // LIKE wildcards are literal characters.
      expect(await content('?search=%25')).toEqual([]);
      expect(await content('?search=_')).toEqual([]);
      // Another organization's domain never matches.
      expect(await content('?search=elsewhere')).toEqual([]);
      const none = (await list('?search=nowhere')).json();
      expect(none).toMatchObject({
        totalElements: 0,
        totalPages: 0,
        numberOfElements: 0,
        empty: true,
        first: true,
        last: true,
      });
    });

    it('filters by each of the five statuses; an unknown status is 400', async () => {
      for (const status of STATUSES) {
        const res = await list(`?status=${status}`);
        expect(res.statusCode).toBe(200);
        const expected = domains.filter((d) => d.status === status);
        expect(expected.length).toBeGreaterThan(0);
        expect(res.json()).toMatchObject({ totalElements: expected.length, numberOfElements: expected.length });
        expect(ids(res.json().content)).toEqual(ids(expected).reverse());
      }
      expect(ids(await content('?status=ACTIVE&search=zeta'))).toEqual([domains[5]!.id]);
      for (const status of ['BOGUS', 'DELETED', 'verified']) {
        const res = await list(`?status=${status}`);
        expect(res.statusCode, status).toBe(400);
        expect(res.json().message).toContain('status');
      }
    });

    it('follows a status change', async () => {
      const mover = await svc.createOrganization('Mover');
      const d = await createDomain(mover.id, 'moving.status.com');
      const withStatus = async (status: string) => ids((await list(`?status=${status}`, mover.apiKey)).json().content);
      expect(await withStatus('PENDING')).toEqual([d.id]);
      expect((await svc.admin('PUT', `/custom-domains/${d.id}/status`, { status: 'FAILED' })).statusCode).toBe(200);
      expect(await withStatus('PENDING')).toEqual([]);
      expect(await withStatus('FAILED')).toEqual([d.id]);
      expect((await svc.service('GET', `/custom-domains/${d.id}`, mover.apiKey)).json()).toMatchObject({
        status: 'FAILED',
        createdAt: d.createdAt,
      });
    });

    it('pages with page and size and fills pageable', async () => {
      const newestFirst = ids(domains).reverse();
      const p0 = (await list('?page=0&size=3')).json();
      expect(p0).toMatchObject({
        totalElements: 7,
        totalPages: 3,
        size: 3,
        number: 0,
        first: true,
        last: false,
        numberOfElements: 3,
        empty: false,
        pageable: { pageNumber: 0, pageSize: 3, offset: 0, paged: true, unpaged: false },
      });
      expect(ids(p0.content)).toEqual(newestFirst.slice(0, 3));
      const p2 = (await list('?page=2&size=3')).json();
      expect(p2).toMatchObject({
        number: 2,
        first: false,
        last: true,
        numberOfElements: 1,
        pageable: { pageNumber: 2, pageSize: 3, offset: 6 },
      });
      expect(ids(p2.content)).toEqual(newestFirst.slice(6));
      const beyond = (await list('?page=5&size=3')).json();
      expect(beyond).toMatchObject({
        content: [],
        totalElements: 7,
        number: 5,
        numberOfElements: 0,
        empty: true,
        last: true,
        pageable: { offset: 15 },
      });
      const sorted = (await list('?page=1&size=2&sort=domainName,asc')).json();
      expect(sorted.content.map((d: Domain) => d.domainName)).toEqual(
        domains
          .map((d) => d.domainName)
          .sort()
          .slice(2, 4),
      );
    });

    it('refuses page and size out of bounds with 400', async () => {
      for (const query of ['?size=0', '?size=101', '?size=-5', '?size=x', '?page=-1', '?page=1.5']) {
        const res = await list(query);
        expect(res.statusCode, query).toBe(400);
        expect(res.json()).toMatchObject({ status: 400, error: 'Bad Request' });
      }
      expect((await list('?size=100')).json().size).toBe(100);
      expect((await list('?size=1')).json()).toMatchObject({ size: 1, totalPages: 7, numberOfElements: 1 });
    });

    it('shows an organization only its own domains', async () => {
      const res = await list('?size=100', other.apiKey);
      expect(ids(res.json().content).sort()).toEqual([theirs.id, theirsVerified.id].sort());
      for (const d of domains) expect(res.body).not.toContain(d.domainName);
      expect(ids(await content('?size=100'))).not.toContain(theirs.id);
    });
  });

  describe('GET /custom-domains/verified', () => {
    it('answers a plain array of the VERIFIED and ACTIVE domains of the caller only', async () => {
      const res = await svc.service('GET', '/custom-domains/verified', org.apiKey);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Array.isArray(body)).toBe(true);
      const usable = domains.filter((d) => d.status === 'VERIFIED' || d.status === 'ACTIVE');
      expect(usable).toHaveLength(4);
      expect(ids(body).sort()).toEqual(ids(usable).sort());
      for (const d of body as Domain[]) {
        expect(Object.keys(d).sort()).toEqual([...RECORD_FIELDS].sort());
        expect(d).toEqual(domains.find((x) => x.id === d.id));
      }
      expect(ids(body)).not.toContain(theirsVerified.id);
      expect(res.body).not.toContain('elsewhere.com');

      const theirList = (await svc.service('GET', '/custom-domains/verified', other.apiKey)).json();
      expect(ids(theirList)).toEqual([theirsVerified.id]);
    });

    it('answers an empty array for an organization without usable domains', async () => {
      const empty = await svc.createOrganization('No Domains');
      await createDomain(empty.id, 'waiting.nodomains.com');
      const res = await svc.service('GET', '/custom-domains/verified', empty.apiKey);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    });
  });

  describe('GET /custom-domains/{id}', () => {
    it('reads a domain of the caller', async () => {
      for (const d of domains) {
        const res = await svc.service('GET', `/custom-domains/${d.id}`, org.apiKey);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual(d);
      }
    });

    it("answers 404 for another organization's domain and for an unknown id", async () => {
      for (const d of [theirs, theirsVerified]) {
        const res = await svc.service('GET', `/custom-domains/${d.id}`, org.apiKey);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ status: 404, error: 'Not Found' });
        expect(typeof res.json().timestamp).toBe('string');
        expect(res.body).not.toContain(d.domainName);
      }
      expect((await svc.service('GET', '/custom-domains/987654321', org.apiKey)).statusCode).toBe(404);
      // ... while the owner reads it.
      expect((await svc.service('GET', `/custom-domains/${theirs.id}`, other.apiKey)).json()).toEqual(theirs);
    });

    it('answers 400 for an id that is not a Long', async () => {
      for (const id of ['abc', '0', '-3', '1.5', '1e3x']) {
        const res = await svc.service('GET', `/custom-domains/${id}`, org.apiKey);
        expect(res.statusCode, id).toBe(400);
        expect(res.json()).toMatchObject({ status: 400, error: 'Bad Request' });
      }
    });

    it('is read-only: no create, update or delete through the Service API', async () => {
      const d = domains[0]!;
      for (const [method, url] of [
        ['POST', '/custom-domains'],
        ['PUT', `/custom-domains/${d.id}`],
        ['DELETE', `/custom-domains/${d.id}`],
      ] as const) {
        const res = await svc.service(
          method,
          url,
          org.apiKey,
          method === 'DELETE' ? undefined : { domainName: 'grab.example.com', status: 'ACTIVE' },
        );
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
      expect((await svc.service('GET', `/custom-domains/${d.id}`, org.apiKey)).json()).toEqual(d);
    });

    it('needs a valid API key', async () => {
      expect((await svc.service('GET', '/custom-domains', 'sp_live_invalid')).statusCode).toBe(401);
      expect((await svc.service('GET', '/custom-domains/verified', 'sp_live_invalid')).statusCode).toBe(401);
      expect((await svc.service('GET', `/custom-domains/${domains[0]!.id}`, 'sp_live_invalid')).statusCode).toBe(401);
    });
  });
});

describe('deletionRequested: the owner asks, the record shows it until the operator completes the deletion', () => {
  let org: { id: number; apiKey: string };
  let other: { id: number; apiKey: string };

  beforeAll(async () => {
    org = await svc.createOrganization('Leaving Domain');
    other = await svc.createOrganization('Bystander');
  });

  const ask = (id: number, apiKey = org.apiKey) =>
    svc.service('POST', `/custom-domains/${id}/deletion-request`, apiKey);

  it('sets deletionRequested and deletionRequestedAt; a repeat keeps the first time; reads and lists show it', async () => {
    const domain = await createDomain(org.id, 'leaving.example.com', 'ACTIVE');
    expect(domain).toMatchObject({ deletionRequested: false, deletionRequestedAt: null });
    const res = await ask(domain.id);
    expect(res.statusCode, res.body).toBe(200);
    const asked = res.json() as Domain;
    expect(asked).toMatchObject({ id: domain.id, status: 'ACTIVE', deletionRequested: true });
    expect(asked.deletionRequestedAt).toMatch(MINUTE);
    expect(Object.keys(asked).sort()).toEqual([...RECORD_FIELDS].sort());
    expect((await ask(domain.id)).json()).toMatchObject({ deletionRequestedAt: asked.deletionRequestedAt });
    expect((await svc.service('GET', `/custom-domains/${domain.id}`, org.apiKey)).json()).toEqual(asked);
    const listed = (await svc.service('GET', '/custom-domains?search=leaving', org.apiKey)).json().content as Domain[];
    expect(listed).toEqual([asked]);
    // It keeps serving until the operator acts.
    expect((await svc.service('GET', '/custom-domains/verified', org.apiKey)).json()).toContainEqual(asked);
  });

  it('can be withdrawn before the operator completes it', async () => {
    const domain = await createDomain(org.id, 'staying.example.com');
    await ask(domain.id);
    const res = await svc.service('DELETE', `/custom-domains/${domain.id}/deletion-request`, org.apiKey);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ deletionRequested: false, deletionRequestedAt: null });
  });

  it("answers 404 for another organization's domain and changes nothing", async () => {
    const domain = await createDomain(org.id, 'mine-only.example.com');
    const res = await ask(domain.id, other.apiKey);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'CUSTOM_DOMAIN_NOT_FOUND' });
    expect((await svc.service('GET', `/custom-domains/${domain.id}`, org.apiKey)).json()).toMatchObject({
      deletionRequested: false,
    });
  });

  it('the operator completes it: the domain is gone for its owner; refused with 409 while links still use it', async () => {
    const domain = await createDomain(org.id, 'go.leaving.example.com', 'ACTIVE');
    const link = await svc.service('POST', '/urls', org.apiKey, {
      url: 'https://example.com/on-domain',
      customDomainName: 'go.leaving.example.com',
    });
    expect(link.statusCode, link.body).toBe(201);
    await ask(domain.id);
    const pending = (await svc.admin('GET', '/custom-domains?deletionRequested=true&size=100')).json()
      .content as Domain[];
    expect(pending.map((d) => d.id)).toContain(domain.id);
    const refused = await svc.admin('DELETE', `/custom-domains/${domain.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ status: 409, code: 'DOMAIN_IN_USE' });
    expect((await svc.service('DELETE', `/urls/${link.json().id}`, org.apiKey)).statusCode).toBe(204);
    expect((await svc.admin('DELETE', `/custom-domains/${domain.id}`)).statusCode).toBe(204);
    expect((await svc.service('GET', `/custom-domains/${domain.id}`, org.apiKey)).statusCode).toBe(404);
    expect((await svc.admin('DELETE', `/custom-domains/${domain.id}`)).statusCode).toBe(404);
  });
});

describe('ownerUsername (the owner account): the console member who registered the domain', () => {
  it("names the member by name, else by address; a domain the operator registered keeps the organization's name", async () => {
    const org = await svc.createOrganization('Owned Domains');
    const named = await consoleMember(svc, 'https://sgnp.example', {
      organizationId: org.id,
      email: 'dns@example.com',
      role: 'developer',
      name: 'Park Jiho',
    });
    const added = await named('POST', `/organizations/${org.id}/custom-domains`, { domainName: 'owned.example.com' });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().ownerUsername).toBe('Park Jiho');
    expect((await svc.service('GET', `/custom-domains/${added.json().id}`, org.apiKey)).json().ownerUsername).toBe(
      'Park Jiho',
    );
    const unnamed = await consoleMember(svc, 'https://sgnp.example', {
      organizationId: org.id,
      email: 'ops@example.com',
      role: 'admin',
    });
    expect(
      (await unnamed('POST', `/organizations/${org.id}/custom-domains`, { domainName: 'owned2.example.com' })).json()
        .ownerUsername,
    ).toBe('ops@example.com');
    expect((await createDomain(org.id, 'operator-made.example.com')).ownerUsername).toBe('Owned Domains');
  });
});
