// The operator API route by route: token rules, every route, validation.
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/api/app.js';
import { ADMIN_TOKEN, serviceForFile } from './support/service.js';

const svc = serviceForFile({ PUBLIC_BASE_URL: 'https://sgnp.example' });

describe('operator token', () => {
  it('answers 401 with the error body for a missing or wrong token', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: ADMIN_TOKEN },
      { authorization: `Basic ${ADMIN_TOKEN}` },
    ]) {
      const res = await svc.inject({
        method: 'POST',
        url: '/api/admin/v1/organizations',
        headers,
        payload: { name: 'x' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ status: 401, error: 'Unauthorized', code: 'ADMIN_TOKEN_INVALID' });
    }
  });

  it('answers 404 on every operator path when SIGNPOST_ADMIN_TOKEN is unset', async () => {
    const app = await buildApp({
      ...svc.container.deps,
      config: { ...svc.config, security: { ...svc.config.security, adminToken: undefined } },
    });
    try {
      for (const [method, url] of [
        ['POST', '/api/admin/v1/organizations'],
        ['GET', '/api/admin/v1/organizations/1'],
        ['PUT', '/api/admin/v1/custom-domains/1/status'],
        ['POST', '/api/admin/v1/partners'],
      ] as const) {
        const res = await app.inject({ method, url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: {} });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ status: 404, error: 'Not Found' });
      }
    } finally {
      await app.close();
    }
  });
});

describe('organizations', () => {
  it('creates an organization with a working key, FREE by default', async () => {
    const res = await svc.admin('POST', '/organizations', { name: 'Acme' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ name: 'Acme', plan: 'FREE', addOns: { userJourney: false, revenueAnalytics: false } });
    expect(typeof body.id).toBe('number');
    expect(body.apiKey).toMatch(/^sp_live_[0-9A-Za-z]{32}$/);
    const usage = await svc.service('GET', '/usage', body.apiKey);
    expect(usage.json()).toMatchObject({ organizationId: body.id, plan: 'FREE' });
    // The key is shown once: reading the organization never shows it again.
    const read = await svc.admin('GET', `/organizations/${body.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.body).not.toContain(body.apiKey);
  });

  it('accepts every plan and refuses others with 400 naming the field', async () => {
    for (const plan of ['FREE', 'PRO', 'BUSINESS', 'ENTERPRISE']) {
      expect((await svc.admin('POST', '/organizations', { name: `P-${plan}`, plan })).json().plan).toBe(plan);
    }
    const bad = await svc.admin('POST', '/organizations', { name: 'x', plan: 'GOLD' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('body.plan');
    const noName = await svc.admin('POST', '/organizations', { plan: 'PRO' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toContain('body.name');
  });

  it('changes plan and quota; unknown organizations are 404', async () => {
    const { id } = await svc.createOrganization('Planner');
    const res = await svc.admin('PUT', `/organizations/${id}/plan`, { plan: 'BUSINESS', monthlyQuota: 5000 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, plan: 'BUSINESS', monthlyQuota: 5000 });
    // Omitting monthlyQuota keeps the override.
    expect((await svc.admin('PUT', `/organizations/${id}/plan`, { plan: 'PRO' })).json()).toMatchObject({
      plan: 'PRO',
      monthlyQuota: 5000,
    });
    expect((await svc.admin('PUT', `/organizations/${id}/plan`, { plan: 'PRO', monthlyQuota: -1 })).statusCode).toBe(
      400,
    );
    const missing = await svc.admin('PUT', '/organizations/987654/plan', { plan: 'PRO' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'ORGANIZATION_NOT_FOUND' });
    expect((await svc.admin('POST', '/organizations/987654/api-keys')).statusCode).toBe(404);
  });

  it('grants add-ons; ENTERPRISE includes both', async () => {
    const { id } = await svc.createOrganization('AddOns', 'PRO');
    const granted = await svc.admin('PUT', `/organizations/${id}/add-ons`, { userJourney: true });
    expect(granted.json().addOns).toEqual({ userJourney: true, revenueAnalytics: false });
    const both = await svc.admin('PUT', `/organizations/${id}/add-ons`, { revenueAnalytics: true });
    expect(both.json().addOns).toEqual({ userJourney: true, revenueAnalytics: true });
    expect((await svc.admin('PUT', `/organizations/${id}/add-ons`, { userJourney: 'yes' })).statusCode).toBe(400);

    const ent = await svc.createOrganization('Big', 'ENTERPRISE');
    const read = await svc.admin('GET', `/organizations/${ent.id}`);
    expect(read.json().addOns).toEqual({ userJourney: true, revenueAnalytics: true });
    const withdrawn = await svc.admin('PUT', `/organizations/${ent.id}/add-ons`, { userJourney: false });
    expect(withdrawn.json().addOns.userJourney).toBe(true);
  });

  it("refuses to delete another organization's key (404) and the key keeps working", async () => {
    const a = await svc.createOrganization('TenantA');
    const b = await svc.createOrganization('TenantB');
    const aKey = (await svc.admin('POST', `/organizations/${a.id}/api-keys`)).json();
    const res = await svc.admin('DELETE', `/organizations/${b.id}/api-keys/${aKey.id}`);
    expect(res.statusCode).toBe(404);
    expect((await svc.service('GET', '/usage', aKey.apiKey)).json().organizationId).toBe(a.id);
  });
});

describe('custom domains', () => {
  it('registers an external domain as PENDING with the CNAME to create', async () => {
    const { id } = await svc.createOrganization('Domains');
    const res = await svc.admin('POST', `/organizations/${id}/custom-domains`, { domainName: 'Go.Shop-Example.com' });
    expect(res.statusCode).toBe(201);
    const domain = res.json();
    expect(domain).toMatchObject({
      domainName: 'go.shop-example.com',
      ownerUsername: 'Domains',
      status: 'PENDING',
      cnameRecordName: 'go.shop-example.com',
      cnameRecordValue: 'cname.sgnp.example',
      deletionRequested: false,
      deletionRequestedAt: null,
    });
    expect(domain.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
  });

  it('gives platform subdomains no CNAME, refuses duplicates and bad names', async () => {
    const { id } = await svc.createOrganization('Sub');
    const sub = await svc.admin('POST', `/organizations/${id}/custom-domains`, { domainName: 'acme.sgnp.example' });
    expect(sub.json()).toMatchObject({ status: 'PENDING', cnameRecordName: null, cnameRecordValue: null });
    const other = await svc.createOrganization('Other');
    const dup = await svc.admin('POST', `/organizations/${other.id}/custom-domains`, {
      domainName: 'ACME.sgnp.example',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ status: 409, code: 'DOMAIN_TAKEN' });
    for (const bad of ['localhost', 'http://x.com', 'a..b.com', 'x.com:8080', '-a.com', 'sgnp.example']) {
      const res = await svc.admin('POST', `/organizations/${id}/custom-domains`, { domainName: bad });
      expect([400, 409]).toContain(res.statusCode);
    }
    expect(
      (await svc.admin('POST', '/organizations/987654/custom-domains', { domainName: 'z.example.org' })).statusCode,
    ).toBe(404);
  });

  it('lets the operator override the status', async () => {
    const { id } = await svc.createOrganization('Override');
    const domain = (
      await svc.admin('POST', `/organizations/${id}/custom-domains`, { domainName: 'links.override.io' })
    ).json();
    for (const status of ['VERIFIED', 'ACTIVE', 'REVOKED', 'FAILED', 'PENDING']) {
      const res = await svc.admin('PUT', `/custom-domains/${domain.id}/status`, { status });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: domain.id, status });
    }
    expect((await svc.admin('PUT', `/custom-domains/${domain.id}/status`, { status: 'DONE' })).statusCode).toBe(400);
    expect((await svc.admin('PUT', '/custom-domains/987654/status', { status: 'ACTIVE' })).statusCode).toBe(404);
  });
});

describe('webhook settings', () => {
  it('stores the endpoint with the secret sealed, all categories by default', async () => {
    const { id } = await svc.createOrganization('Hooked');
    const secret = 'whsec-0123456789-abcdef';
    const res = await svc.admin('PUT', `/organizations/${id}/webhook`, {
      url: 'https://hooks.example.com/signpost',
      secret,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      url: 'https://hooks.example.com/signpost',
      events: ['click', 'campaign', 'goal', 'funnel', 'session'],
      enabled: true,
      secretRotation: false,
    });
    expect(res.body).not.toContain(secret);
    const [row] = await svc.container.postgres.sql<{ secret_sealed: string }[]>`
      select secret_sealed from webhook_endpoints where organization_id = ${id}`;
    expect(row!.secret_sealed).not.toContain(secret);
    expect(svc.container.secretBox.open(row!.secret_sealed)).toBe(secret);

    const narrowed = await svc.admin('PUT', `/organizations/${id}/webhook`, {
      url: 'https://hooks.example.com/v2',
      secret,
      events: ['click', 'goal'],
    });
    expect(narrowed.json()).toMatchObject({ events: ['click', 'goal'], secretRotation: false });
    const rotated = await svc.admin('PUT', `/organizations/${id}/webhook`, {
      url: 'https://hooks.example.com/v2',
      secret: 'whsec-new-secret-9876543',
    });
    expect(rotated.json().secretRotation).toBe(true);
  });

  it('refuses plain HTTP, short secrets and unknown categories', async () => {
    const { id } = await svc.createOrganization('HookRules');
    const http = await svc.admin('PUT', `/organizations/${id}/webhook`, {
      url: 'http://hooks.example.com/x',
      secret: 'whsec-0123456789-abcdef',
    });
    expect(http.statusCode).toBe(400);
    expect(http.json().code).toBe('WEBHOOK_URL_INSECURE');
    expect(
      (await svc.admin('PUT', `/organizations/${id}/webhook`, { url: 'https://h.example.com', secret: 'short' }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await svc.admin('PUT', `/organizations/${id}/webhook`, {
          url: 'https://h.example.com',
          secret: 'whsec-0123456789-abcdef',
          events: ['clicks'],
        })
      ).statusCode,
    ).toBe(400);
  });
});

describe('SSO partners', () => {
  it('issues a client id and a shared secret shown once, stored sealed', async () => {
    const res = await svc.admin('POST', '/partners', {
      serviceName: 'Partner Shop',
      allowedOrigins: ['https://shop.partner.example', 'http://localhost:3000'],
      loginUrl: 'https://shop.partner.example/login',
      contactEmail: 'dev@partner.example',
    });
    expect(res.statusCode).toBe(201);
    const { clientId, sharedSecret } = res.json();
    expect(clientId).toMatch(/^spc_/);
    expect(sharedSecret.length).toBeGreaterThanOrEqual(43);
    const [row] = await svc.container.postgres.sql<
      { shared_secret_sealed: string; contact_email_sealed: string; allowed_origins: string[] }[]
    >`
      select shared_secret_sealed, contact_email_sealed, allowed_origins from sso_partners where client_id = ${clientId}`;
    expect(row!.shared_secret_sealed).not.toContain(sharedSecret);
    expect(row!.contact_email_sealed).not.toContain('dev@partner.example');
    expect(svc.container.secretBox.open(row!.shared_secret_sealed)).toBe(sharedSecret);
    expect(row!.allowed_origins).toEqual(['https://shop.partner.example', 'http://localhost:3000']);
  });

  it('accepts comma-separated origins and refuses non-https login URLs and bad origins', async () => {
    const ok = await svc.admin('POST', '/partners', {
      serviceName: 'Comma',
      allowedOrigins: 'https://a.example, https://b.example',
      loginUrl: 'https://a.example/login',
      contactEmail: 'a@a.example',
    });
    expect(ok.statusCode).toBe(201);
    const httpLogin = await svc.admin('POST', '/partners', {
      serviceName: 'Bad',
      allowedOrigins: [],
      loginUrl: 'http://a.example/login',
      contactEmail: 'a@a.example',
    });
    expect(httpLogin.statusCode).toBe(400);
    expect(httpLogin.json().message).toContain('loginUrl');
    const badOrigin = await svc.admin('POST', '/partners', {
      serviceName: 'Bad',
      allowedOrigins: ['https://a.example/path'],
      loginUrl: 'https://a.example/login',
      contactEmail: 'a@a.example',
    });
    expect(badOrigin.statusCode).toBe(400);
  });
});

describe('list endpoints, paged (page from 0, size up to 100) like the rest of the operator API', () => {
  const PAGE_FIELDS = ['content', 'page', 'size', 'totalElements', 'totalPages', 'first', 'last'];

  it('GET /organizations lists newest first, pages, and filters by part of the name and by plan', async () => {
    const tag = `Lister${Date.now()}`;
    const made = [];
    for (const plan of ['FREE', 'PRO', 'PRO'] as const) made.push(await svc.createOrganization(`${tag} ${plan}`, plan));
    const res = await svc.admin('GET', `/organizations?search=${tag.toLowerCase()}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([...PAGE_FIELDS].sort());
    expect(body.content.map((o: { id: number }) => o.id)).toEqual(made.map((o) => o.id).reverse());
    expect(body.content[0]).toMatchObject({ name: `${tag} PRO`, plan: 'PRO', addOns: { userJourney: false } });
    expect(JSON.stringify(body)).not.toMatch(/sp_live_/);
    const pro = (await svc.admin('GET', `/organizations?search=${tag}&plan=PRO&size=1&page=1`)).json();
    expect(pro).toMatchObject({ page: 1, size: 1, totalElements: 2, totalPages: 2, first: false, last: true });
    expect(pro.content.map((o: { id: number }) => o.id)).toEqual([made[1]!.id]);
    expect((await svc.admin('GET', '/organizations?size=101')).statusCode).toBe(400);
    expect((await svc.admin('GET', '/organizations?plan=GOLD')).statusCode).toBe(400);
  });

  it('GET /organizations/{orgId}/api-keys lists live keys by id, name, prefix, scopes and expiry, never the key; one key is readable alone', async () => {
    const org = await svc.createOrganization('Keyring');
    const second = (await svc.admin('POST', `/organizations/${org.id}/api-keys`)).json();
    const res = await svc.admin('GET', `/organizations/${org.id}/api-keys`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ totalElements: 2, page: 0 });
    expect(body.content.map((k: { id: number }) => k.id)).toContain(second.id);
    for (const key of body.content) {
      expect(Object.keys(key).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'name', 'prefix', 'scopes']);
      expect(key).toMatchObject({ scopes: [], expiresAt: null });
    }
    expect(res.body).not.toContain(org.apiKey);
    expect(res.body).not.toContain(second.apiKey);
    expect(second.apiKey.startsWith(body.content.find((k: { id: number }) => k.id === second.id).prefix)).toBe(true);
    const one = await svc.admin('GET', `/organizations/${org.id}/api-keys/${second.id}`);
    expect(one.json()).toMatchObject({ id: second.id, prefix: second.apiKey.slice(0, 12) });
    // A deleted key is no longer listed or readable; another organization's key is not found there.
    await svc.admin('DELETE', `/organizations/${org.id}/api-keys/${second.id}`);
    expect((await svc.admin('GET', `/organizations/${org.id}/api-keys`)).json().totalElements).toBe(1);
    expect((await svc.admin('GET', `/organizations/${org.id}/api-keys/${second.id}`)).json()).toMatchObject({
      code: 'API_KEY_NOT_FOUND',
    });
    const stranger = await svc.createOrganization('Stranger');
    const theirs = (await svc.admin('GET', `/organizations/${stranger.id}/api-keys`)).json().content[0];
    expect((await svc.admin('GET', `/organizations/${org.id}/api-keys/${theirs.id}`)).statusCode).toBe(404);
    expect((await svc.admin('GET', '/organizations/987654/api-keys')).json()).toMatchObject({
      code: 'ORGANIZATION_NOT_FOUND',
    });
  });

  it('GET /partners pages the partners and never shows a shared secret', async () => {
    const created = [];
    for (const name of ['List A', 'List B']) {
      const res = await svc.admin('POST', '/partners', {
        serviceName: name,
        allowedOrigins: ['https://list.example'],
        loginUrl: 'https://list.example/login',
        contactEmail: 'dev@list.example',
      });
      created.push(res.json() as { clientId: string; sharedSecret: string });
    }
    const res = await svc.admin('GET', '/partners?size=100');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([...PAGE_FIELDS].sort());
    expect(body.content.map((p: { clientId: string }) => p.clientId)).toEqual(
      expect.arrayContaining(created.map((c) => c.clientId)),
    );
    for (const c of created) expect(res.body).not.toContain(c.sharedSecret);
    const firstOnly = (await svc.admin('GET', '/partners?size=1')).json();
    expect(firstOnly).toMatchObject({ size: 1, first: true, totalElements: body.totalElements });
    expect(firstOnly.content).toHaveLength(1);
  });

  it("GET /custom-domains lists every organization's domains with their organizationId, filters by organization and status; one is readable", async () => {
    const a = await svc.createOrganization('Domains A');
    const b = await svc.createOrganization('Domains B');
    const da = (
      await svc.admin('POST', `/organizations/${a.id}/custom-domains`, { domainName: 'list-a.example.com' })
    ).json();
    const db = (
      await svc.admin('POST', `/organizations/${b.id}/custom-domains`, { domainName: 'list-b.example.com' })
    ).json();
    await svc.admin('PUT', `/custom-domains/${db.id}/status`, { status: 'ACTIVE' });
    const all = (await svc.admin('GET', '/custom-domains?search=list-&size=100')).json();
    expect(all.content.map((d: { id: number }) => d.id)).toEqual([db.id, da.id]);
    expect(all.content[0]).toMatchObject({
      domainName: 'list-b.example.com',
      organizationId: b.id,
      status: 'ACTIVE',
      deletionRequested: false,
    });
    expect(
      (await svc.admin('GET', `/custom-domains?organizationId=${a.id}`))
        .json()
        .content.map((d: { id: number }) => d.id),
    ).toEqual([da.id]);
    expect(
      (await svc.admin('GET', '/custom-domains?search=list-&status=ACTIVE'))
        .json()
        .content.map((d: { id: number }) => d.id),
    ).toEqual([db.id]);
    expect((await svc.admin('GET', `/custom-domains/${da.id}`)).json()).toMatchObject({
      id: da.id,
      organizationId: a.id,
    });
    expect((await svc.admin('GET', '/custom-domains/987654')).json()).toMatchObject({
      code: 'CUSTOM_DOMAIN_NOT_FOUND',
    });
    expect((await svc.admin('GET', '/custom-domains?deletionRequested=maybe')).statusCode).toBe(400);
  });
});
