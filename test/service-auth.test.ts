// Service API authentication: a key (401), the IP allow-list (403), the monthly quota (429); scoped
// keys (`read`, and one resource's read or write) and expiring keys.
import { describe, expect, it } from 'vitest';
import { serviceForFile } from './support/service.js';
import { expectError } from './support/error-body.js';

const svc = serviceForFile();

describe('X-API-KEY', () => {
  it('answers 401 without a key, with the error body', async () => {
    const res = await svc.inject({ method: 'GET', url: '/api/v1/service/usage' });
    expectError(res, 401, { code: 'API_KEY_MISSING' });
    expect(res.json()).toMatchObject({ error: 'Unauthorized' });
  });

  it('answers 401 for an unknown key, including one of absurd length', async () => {
    expectError(await svc.service('GET', '/usage', 'sp_live_notarealkey000000000000000000'), 401, {
      code: 'API_KEY_INVALID',
    });
    expectError(await svc.service('GET', '/usage', 'x'.repeat(5000)), 401, { code: 'API_KEY_INVALID' });
  });

  it('accepts a fresh key and tells the organization its usage', async () => {
    const org = await svc.createOrganization('Keyed', 'PRO');
    const res = await svc.service('GET', '/usage', org.apiKey);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ organizationId: org.id, plan: 'PRO', monthlyQuota: 100_000, callsThisMonth: 1 });
  });

  it('stores only a hash of the key', async () => {
    const org = await svc.createOrganization('Hashed');
    const rows = await svc.container.postgres.sql<{ key_hash: Buffer; key_prefix: string }[]>`
      select key_hash, key_prefix from api_keys where organization_id = ${org.id}`;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash.length).toBe(32);
    expect(rows[0]!.key_hash.toString('utf8')).not.toContain(org.apiKey);
    expect(org.apiKey.startsWith(rows[0]!.key_prefix)).toBe(true);
    expect(rows[0]!.key_prefix.length).toBeLessThan(org.apiKey.length / 2);
  });

  it('fails a deleted key on its very next call, and leaves the other keys working', async () => {
    const org = await svc.createOrganization('Rotating');
    const second = (await svc.admin('POST', `/organizations/${org.id}/api-keys`)).json() as {
      id: number;
      apiKey: string;
    };
    expect((await svc.service('GET', '/usage', second.apiKey)).statusCode).toBe(200);
    const del = await svc.admin('DELETE', `/organizations/${org.id}/api-keys/${second.id}`);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expectError(await svc.service('GET', '/usage', second.apiKey), 401, { code: 'API_KEY_INVALID' });
    expect((await svc.service('GET', '/usage', org.apiKey)).statusCode).toBe(200);
    // Deleting it again: it is gone.
    expect((await svc.admin('DELETE', `/organizations/${org.id}/api-keys/${second.id}`)).statusCode).toBe(404);
  });
});

describe('scoped and expiring keys', () => {
  type Issued = { id: number; apiKey: string };
  const issue = async (orgId: number, body?: unknown) => svc.admin('POST', `/organizations/${orgId}/api-keys`, body);

  it('a read-only key reads everything and is refused (403) any other method, changing nothing', async () => {
    const org = await svc.createOrganization('ReadOnly');
    const link = await svc.createLink(org, { url: 'https://example.com/ro' });
    const res = await issue(org.id, { name: 'dashboards', scopes: ['read'] });
    expect(res.statusCode, res.body).toBe(201);
    const reader = res.json() as Issued;

    for (const path of ['/urls', `/urls/${link.id}`, '/campaigns', '/usage', `/urls/${link.id}/stats`]) {
      expect((await svc.service('GET', path, reader.apiKey)).statusCode, path).toBe(200);
    }
    const refused = [
      await svc.service('POST', '/urls', reader.apiKey, { url: 'https://example.com/new' }),
      await svc.service('PUT', `/urls/${link.id}`, reader.apiKey, { url: 'https://example.com/changed' }),
      await svc.service('DELETE', `/urls/${link.id}`, reader.apiKey),
    ];
    for (const r of refused) expectError(r, 403, { missingScope: 'links:write' });
    const after = (await svc.service('GET', `/urls/${link.id}`, org.apiKey)).json();
    expect(after).toMatchObject({ id: link.id, originalUrl: 'https://example.com/ro' });
    expect((await svc.service('GET', '/urls', org.apiKey)).json().content).toHaveLength(1);

    // The list shows the key's scopes; a key without scopes has full access.
    const listed = (await svc.admin('GET', `/organizations/${org.id}/api-keys/${reader.id}`)).json();
    expect(listed).toMatchObject({ name: 'dashboards', scopes: ['read'], expiresAt: null });
    const full = (await issue(org.id)).json() as Issued;
    expect((await svc.admin('GET', `/organizations/${org.id}/api-keys/${full.id}`)).json()).toMatchObject({
      scopes: [],
    });
    expect((await svc.service('POST', '/urls', full.apiKey, { url: 'https://example.com/w' })).statusCode).toBe(201);
  });

  it('a `read` key lists and reads every resource and its statistics, and may create, change or delete none', async () => {
    const org = await svc.createOrganization('ReadEverything', 'PRO');
    const full = org.apiKey;
    const link = await svc.createLink(org, { url: 'https://example.com/r' });
    const campaign = await svc.createCampaign(org, {
      name: 'Spring',
      originalUrl: 'https://example.com/c',
      alias: 'spr',
    });
    const app = await svc.createApp(org, { platform: 'IOS', appName: 'Reader', bundleId: 'com.reader.app' });
    const tag = (await svc.service('POST', '/tags', full, { name: 'kept' })).json() as { id: number };
    const domain = (
      await svc.admin('POST', `/organizations/${org.id}/custom-domains`, { domainName: 'go.read-only.example' })
    ).json() as { id: number };
    const reader = ((await issue(org.id, { scopes: ['read'] })).json() as Issued).apiKey;

    const reads = [
      '/urls',
      `/urls/${link.id}`,
      `/urls/${link.id}/stats`,
      `/urls/${link.id}/qr`,
      '/campaigns',
      `/campaigns/${campaign.id}`,
      `/campaigns/${campaign.id}/stats`,
      '/tags',
      '/mobile-apps',
      `/mobile-apps/${app.id}`,
      `/mobile-apps/${app.id}/install-stats`,
      '/custom-domains',
      `/custom-domains/${domain.id}`,
      '/imports',
      '/users?email=someone@example.com',
      '/usage',
    ];
    for (const path of reads) expect((await svc.service('GET', path, reader)).statusCode, path).toBe(200);

    const writes: Array<[method: string, path: string, scope: string, body?: unknown]> = [
      ['POST', '/urls', 'links:write', { url: 'https://example.com/new' }],
      ['PUT', `/urls/${link.id}`, 'links:write', { url: 'https://example.com/changed' }],
      ['DELETE', `/urls/${link.id}`, 'links:write'],
      ['POST', '/urls/bulk', 'links:write', { items: [{ url: 'https://example.com/b' }] }],
      ['POST', '/tags', 'links:write', { name: 'new' }],
      ['PUT', `/tags/${tag.id}`, 'links:write', { name: 'renamed' }],
      ['DELETE', `/tags/${tag.id}`, 'links:write'],
      ['POST', '/imports', 'links:write', { source: 'bitly', token: 'x' }],
      ['POST', '/campaigns', 'campaigns:write', { name: 'New', originalUrl: 'https://example.com/n', alias: 'nw' }],
      ['PUT', `/campaigns/${campaign.id}`, 'campaigns:write', { name: 'Changed' }],
      ['DELETE', `/campaigns/${campaign.id}`, 'campaigns:write'],
      ['POST', '/mobile-apps', 'apps:write', { platform: 'ANDROID', appName: 'New', bundleId: 'com.new.app' }],
      ['PUT', `/mobile-apps/${app.id}`, 'apps:write', { appName: 'Changed' }],
      ['DELETE', `/mobile-apps/${app.id}`, 'apps:write'],
      ['POST', `/mobile-apps/${app.id}/api-key`, 'apps:write'],
      ['POST', `/custom-domains/${domain.id}/deletion-request`, 'domains:write'],
      ['DELETE', `/custom-domains/${domain.id}/deletion-request`, 'domains:write'],
      ['POST', `/urls/${link.id}/share`, 'statistics:write'],
      ['DELETE', `/urls/${link.id}/share`, 'statistics:write'],
    ];
    for (const [method, path, scope, body] of writes) {
      expectError(await svc.service(method, path, reader, body), 403, { missingScope: scope });
    }

    // Nothing changed: the full key still finds each thing as it was, and nothing new.
    expect((await svc.service('GET', `/urls/${link.id}`, full)).json()).toMatchObject({
      originalUrl: 'https://example.com/r',
    });
    expect((await svc.service('GET', '/urls', full)).json().content).toHaveLength(1);
    expect((await svc.service('GET', `/campaigns/${campaign.id}`, full)).json()).toMatchObject({ name: 'Spring' });
    expect((await svc.service('GET', '/campaigns', full)).json().content).toHaveLength(1);
    expect((await svc.service('GET', `/mobile-apps/${app.id}`, full)).json()).toMatchObject({ appName: 'Reader' });
    expect((await svc.service('GET', '/tags', full)).json().items).toEqual([expect.objectContaining({ name: 'kept' })]);
    expect((await svc.service('GET', `/custom-domains/${domain.id}`, full)).json()).toMatchObject({
      deletionRequested: false,
    });
  });

  it('a key scoped to one resource calls its operations and is refused the others, naming the scope', async () => {
    const org = await svc.createOrganization('OneResource', 'PRO');
    const link = await svc.createLink(org, { url: 'https://example.com/one' });
    const keyWith = async (...scopes: string[]) => ((await issue(org.id, { scopes })).json() as Issued).apiKey;

    // links:write creates and reads links, not statistics, campaigns or the account.
    const writer = await keyWith('links:write');
    const created = await svc.service('POST', '/urls', writer, { url: 'https://example.com/made' });
    expect(created.statusCode, created.body).toBe(201);
    expect((await svc.service('GET', '/urls', writer)).json().content).toHaveLength(2);
    expectError(await svc.service('GET', `/urls/${link.id}/stats`, writer), 403, { missingScope: 'statistics:read' });
    expectError(await svc.service('POST', `/urls/${link.id}/share`, writer), 403, {
      missingScope: 'statistics:write',
    });
    expectError(await svc.service('GET', '/campaigns', writer), 403, { missingScope: 'campaigns:read' });
    expectError(await svc.service('GET', '/usage', writer), 403, { missingScope: 'account:read' });

    // statistics:read reads statistics, and neither the links themselves nor the users.
    const reporter = await keyWith('statistics:read');
    expect((await svc.service('GET', `/urls/${link.id}/stats`, reporter)).statusCode).toBe(200);
    expectError(await svc.service('GET', '/urls', reporter), 403, { missingScope: 'links:read' });
    expectError(await svc.service('GET', '/users', reporter), 403, { missingScope: 'users:read' });
    expectError(await svc.service('DELETE', `/urls/${link.id}`, reporter), 403, { missingScope: 'links:write' });

    // The user-journey statistics take a Service API key too, with the same scope (this
    // organization lacks the add-on: the key passes, the add-on check refuses).
    const journey = (apiKey: string) =>
      svc.inject({ method: 'GET', url: '/api/v1/cross-platform/stats/summary', headers: { 'x-api-key': apiKey } });
    expectError(await journey(reporter), 403, { code: 'ADD_ON_REQUIRED' });
    expectError(await journey(writer), 403, { missingScope: 'statistics:read' });

    // Several scopes add up; an unknown path is still a 404 for a scoped key.
    const both = await keyWith('links:read', 'statistics:read');
    expect((await svc.service('GET', '/urls', both)).statusCode).toBe(200);
    expect((await svc.service('GET', `/urls/${link.id}/stats`, both)).statusCode).toBe(200);
    expectError(await svc.service('GET', '/no-such-thing', both), 404, { code: 'ROUTE_NOT_FOUND' });
    // The refusal in Korean still names the scope.
    const ko = await svc.service('GET', '/campaigns', both, undefined, { headers: { 'accept-language': 'ko' } });
    expectError(ko, 403, { missingScope: 'campaigns:read' });

    // The key lists its scopes in one order, each once.
    const listed = await issue(org.id, { scopes: ['statistics:read', 'links:read', 'statistics:read'] });
    const { id } = listed.json() as Issued;
    expect((await svc.admin('GET', `/organizations/${org.id}/api-keys/${id}`)).json()).toMatchObject({
      scopes: ['links:read', 'statistics:read'],
    });
  });

  it('an expiring key works until its expiry and answers 401 after it', async () => {
    const org = await svc.createOrganization('Expiring');
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const key = (await issue(org.id, { expiresAt })).json() as Issued;
    expect((await svc.service('GET', '/usage', key.apiKey)).statusCode).toBe(200);
    expect((await svc.admin('GET', `/organizations/${org.id}/api-keys/${key.id}`)).json()).toMatchObject({
      expiresAt: new Date(expiresAt).toISOString(),
    });
    // The hour passes (moved in the database: the service reads the expiry on every call).
    await svc.container.postgres.sql`update api_keys set expires_at = now() - interval '1 second' where id = ${key.id}`;
    const res = await svc.service('GET', '/usage', key.apiKey);
    expectError(res, 401, { code: 'API_KEY_EXPIRED' });
    expect(res.json().message).toMatch(/^the API key expired at \d{4}-/);
    expect((await svc.service('GET', '/usage', org.apiKey)).statusCode).toBe(200);
  });

  it('refuses an unknown scope and an expiry in the past with details', async () => {
    const org = await svc.createOrganization('BadKeys');
    const scope = await issue(org.id, { scopes: ['admin'] });
    expectError(scope, 400);
    expect(scope.json().details).toEqual([expect.objectContaining({ field: 'scopes.0' })]);
    const second = await issue(org.id, { scopes: ['links:read', 'links:delete'] });
    expectError(second, 400);
    expect(second.json().details).toEqual([expect.objectContaining({ field: 'scopes.1' })]);
    const past = await issue(org.id, { expiresAt: '2020-01-01T00:00:00Z' });
    expectError(past, 400);
    expect(past.json().details).toEqual([expect.objectContaining({ field: 'expiresAt' })]);
    const notInstant = await issue(org.id, { expiresAt: 'tomorrow' });
    expectError(notInstant, 400);
    expect(notInstant.json().details).toEqual([expect.objectContaining({ field: 'expiresAt' })]);
    // Nothing was issued: the organization still has its first key only.
    expect((await svc.admin('GET', `/organizations/${org.id}/api-keys`)).json().content).toHaveLength(1);
  });
});

describe('IP allow-list', () => {
  it('allows every address while the list is empty', async () => {
    const org = await svc.createOrganization('Open');
    expect(
      (await svc.service('GET', '/usage', org.apiKey, undefined, { remoteAddress: '198.51.100.7' })).statusCode,
    ).toBe(200);
  });

  it('answers 403 to an address not on the list, and serves listed addresses and CIDR blocks', async () => {
    const org = await svc.createOrganization('Fenced');
    const set = await svc.admin('PUT', `/organizations/${org.id}/ip-allowlist`, {
      ips: ['203.0.113.10', '192.0.2.0/24', '2001:db8::/32'],
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ ips: ['203.0.113.10', '192.0.2.0/24', '2001:db8::/32'] });

    expectError(await svc.service('GET', '/usage', org.apiKey, undefined, { remoteAddress: '198.51.100.7' }), 403, {
      code: 'IP_NOT_ALLOWED',
    });
    expect(
      (await svc.service('GET', '/usage', org.apiKey, undefined, { remoteAddress: '203.0.113.10' })).statusCode,
    ).toBe(200);
    expect(
      (await svc.service('GET', '/usage', org.apiKey, undefined, { remoteAddress: '::ffff:192.0.2.44' })).statusCode,
    ).toBe(200);
    expect(
      (await svc.service('GET', '/usage', org.apiKey, undefined, { remoteAddress: '2001:db8::1' })).statusCode,
    ).toBe(200);
    expectError(await svc.service('GET', '/usage', org.apiKey, undefined, { remoteAddress: '2001:db9::1' }), 403, {
      code: 'IP_NOT_ALLOWED',
    });
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is configured', async () => {
    const org = await svc.createOrganization('Proxied');
    await svc.admin('PUT', `/organizations/${org.id}/ip-allowlist`, { ips: ['203.0.113.10'] });
    const spoofed = await svc.service('GET', '/usage', org.apiKey, undefined, {
      remoteAddress: '198.51.100.7',
      headers: { 'x-forwarded-for': '203.0.113.10' },
    });
    expectError(spoofed, 403, { code: 'IP_NOT_ALLOWED' });
  });

  it('an empty list opens it again; invalid entries are refused with 400', async () => {
    const org = await svc.createOrganization('Reopened');
    await svc.admin('PUT', `/organizations/${org.id}/ip-allowlist`, { ips: ['203.0.113.10'] });
    expect(
      (await svc.service('GET', '/usage', org.apiKey, undefined, { remoteAddress: '198.51.100.7' })).statusCode,
    ).toBe(403);
    await svc.admin('PUT', `/organizations/${org.id}/ip-allowlist`, { ips: [] });
    expect(
      (await svc.service('GET', '/usage', org.apiKey, undefined, { remoteAddress: '198.51.100.7' })).statusCode,
    ).toBe(200);
    for (const bad of ['999.1.1.1', '10.0.0.0/33', 'example.com', '10.0.0.1/8/1']) {
      const res = await svc.admin('PUT', `/organizations/${org.id}/ip-allowlist`, { ips: [bad] });
      expectError(res, 400, { code: 'VALIDATION_FAILED' });
      expect((res.json() as { message: string }).message).toContain('ips.0');
    }
  });
});

describe('monthly quota', () => {
  it('answers 429 with Retry-After once the quota is used, without a database write per call', async () => {
    const org = await svc.createOrganization('Metered');
    const plan = await svc.admin('PUT', `/organizations/${org.id}/plan`, { plan: 'FREE', monthlyQuota: 3 });
    expect(plan.json()).toMatchObject({ plan: 'FREE', monthlyQuota: 3, monthlyQuotaOverride: 3 });
    for (let i = 0; i < 3; i++) expect((await svc.service('GET', '/usage', org.apiKey)).statusCode).toBe(200);
    const limited = await svc.service('GET', '/usage', org.apiKey);
    expectError(limited, 429, { code: 'QUOTA_EXCEEDED' });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(31 * 24 * 3600);

    // The counts reach PostgreSQL in batches, and the limit holds after they do.
    await svc.container.usageMeter.flush();
    const [row] = await svc.container.postgres.sql<{ calls: number }[]>`
      select calls from api_usage where organization_id = ${org.id}`;
    expect(row!.calls).toBe(3);
    expect((await svc.service('GET', '/usage', org.apiKey)).statusCode).toBe(429);

    // Raising the quota lets calls through again; null returns to the plan default.
    await svc.admin('PUT', `/organizations/${org.id}/plan`, { plan: 'FREE', monthlyQuota: 10 });
    expect((await svc.service('GET', '/usage', org.apiKey)).statusCode).toBe(200);
    const reset = await svc.admin('PUT', `/organizations/${org.id}/plan`, { plan: 'PRO', monthlyQuota: null });
    expect(reset.json()).toMatchObject({ plan: 'PRO', monthlyQuota: 100_000, monthlyQuotaOverride: null });
  });

  it('counts rejected calls of other organizations apart', async () => {
    const a = await svc.createOrganization('QuotaA');
    const b = await svc.createOrganization('QuotaB');
    await svc.admin('PUT', `/organizations/${a.id}/plan`, { plan: 'FREE', monthlyQuota: 1 });
    expect((await svc.service('GET', '/usage', a.apiKey)).statusCode).toBe(200);
    expect((await svc.service('GET', '/usage', a.apiKey)).statusCode).toBe(429);
    expect((await svc.service('GET', '/usage', b.apiKey)).statusCode).toBe(200);
  });
});

describe('TRUST_PROXY', () => {
  it('takes the client address from X-Forwarded-For when configured', async () => {
    // A second app on the same stores, configured to trust the proxy in front of it.
    const { buildApp } = await import('../src/api/app.js');
    const trusting = await buildApp({
      ...svc.container.deps,
      config: { ...svc.config, server: { ...svc.config.server, trustProxy: true } },
    });
    try {
      const org = await svc.createOrganization('BehindProxy');
      await svc.admin('PUT', `/organizations/${org.id}/ip-allowlist`, { ips: ['203.0.113.10'] });
      const viaProxy = await trusting.inject({
        method: 'GET',
        url: '/api/v1/service/usage',
        headers: { 'x-api-key': org.apiKey, 'x-forwarded-for': '203.0.113.10' },
        remoteAddress: '10.0.0.1',
      });
      expect(viaProxy.statusCode).toBe(200);
    } finally {
      await trusting.close();
    }
  });
});
