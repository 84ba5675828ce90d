// GET / : on the service's own host the console; on a customer's custom domain the fallback address
// the operator set for it, or the 404 page; never anything of the operator's on a customer domain.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './support/error-body.js';
import { serviceForFile } from './support/service.js';

const DOMAIN = 'go.acme-shop.example';
const PENDING = 'pending.acme-shop.example';

let verifiedId: number;
let pendingId: number;

const root = (host: string) => svc.inject({ method: 'GET', url: '/', headers: { host } });
const setFallback = (id: number, fallbackUrl: string | null) =>
  svc.admin('PUT', `/custom-domains/${id}/fallback-url`, { fallbackUrl });

const svc = serviceForFile({ PUBLIC_BASE_URL: 'https://sgnp.example' });

beforeAll(async () => {
  const org = await svc.createOrganization('Acme', 'PRO');
  const register = async (domainName: string) =>
    (await svc.admin('POST', `/organizations/${org.id}/custom-domains`, { domainName })).json() as { id: number };
  verifiedId = (await register(DOMAIN)).id;
  pendingId = (await register(PENDING)).id;
  expect((await svc.admin('PUT', `/custom-domains/${verifiedId}/status`, { status: 'VERIFIED' })).statusCode).toBe(200);
});

describe('GET / on the service host', () => {
  it('redirects to the console, on the public host and on addresses probes use', async () => {
    for (const host of ['sgnp.example', 'localhost:8080', '127.0.0.1:8080']) {
      const res = await root(host);
      expect(res.statusCode, host).toBe(302);
      expect(res.headers.location).toBe('/console/');
    }
  });
});

describe('GET / on a custom domain', () => {
  it('is the 404 page (HTML, not JSON, nothing of the console) until a fallback is set', async () => {
    const res = await root(DOMAIN);
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<html');
    expect(res.body).not.toContain('/console');
  });

  it("redirects to the domain's fallback URL once the operator sets it, and stops when it is cleared", async () => {
    const set = await setFallback(verifiedId, 'https://acme-shop.example/home?from=short');
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      id: verifiedId,
      domainName: DOMAIN,
      fallbackUrl: 'https://acme-shop.example/home?from=short',
    });
    const res = await root(DOMAIN.toUpperCase());
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://acme-shop.example/home?from=short');

    expect((await setFallback(verifiedId, null)).json()).toMatchObject({ fallbackUrl: null });
    expect((await root(DOMAIN)).statusCode).toBe(404);
  });

  it('is the 404 page on a domain that is not verified, whatever its fallback, and on an unknown host', async () => {
    expect((await setFallback(pendingId, 'https://acme-shop.example/')).statusCode).toBe(200);
    for (const host of [PENDING, 'unknown.example.org']) {
      const res = await root(host);
      expect(res.statusCode, host).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    }
  });

  it('refuses a fallback that is not a public https URL, and an unknown domain', async () => {
    for (const fallbackUrl of ['http://acme-shop.example/', 'https://10.0.0.1/', 'javascript:alert(1)', '']) {
      expectError(await setFallback(verifiedId, fallbackUrl), 400, { code: 'VALIDATION_FAILED', field: 'fallbackUrl' });
    }
    expectError(await setFallback(999_999, 'https://acme-shop.example/'), 404, { code: 'CUSTOM_DOMAIN_NOT_FOUND' });
  });

  it('keeps the Service API custom domain record to the spec: no fallbackUrl there', async () => {
    const org = await svc.createOrganization('Other', 'PRO');
    const created = (
      await svc.admin('POST', `/organizations/${org.id}/custom-domains`, { domainName: 'links.other.example' })
    ).json() as { id: number };
    await setFallback(created.id, 'https://other.example/');
    const read = await svc.service('GET', `/custom-domains/${created.id}`, org.apiKey);
    expect(read.statusCode).toBe(200);
    expect(Object.keys(read.json())).not.toContain('fallbackUrl');
  });
});
