// The on-demand TLS question (GET /api/tls/ask?domain=, Caddy's `ask`): a certificate only for the
// service's own host and for custom domains that serve links, so pointing a name at the server
// is not enough to make the proxy obtain a certificate for it.
import { describe, expect, it } from 'vitest';
import { expectError } from './support/error-body.js';
import { serviceForFile } from './support/service.js';

const svc = serviceForFile({ PUBLIC_BASE_URL: 'https://sgnp.example', OPERATOR_HOSTS: 'ops.sgnp.example' });

const ask = (domain: string) =>
  svc.inject({
    method: 'GET',
    url: `/api/tls/ask?domain=${encodeURIComponent(domain)}`,
    headers: { host: '127.0.0.1:8080' },
  });

async function domainWithStatus(orgId: number, domainName: string, status: string): Promise<void> {
  const created = await svc.admin('POST', `/organizations/${orgId}/custom-domains`, { domainName });
  expect(created.statusCode).toBe(201);
  if (status === 'PENDING') return;
  const set = await svc.admin('PUT', `/custom-domains/${(created.json() as { id: number }).id}/status`, { status });
  expect(set.statusCode).toBe(200);
}

describe('GET /api/tls/ask (on-demand TLS)', () => {
  it("allows the service's own host names", async () => {
    for (const domain of ['sgnp.example', 'SGNP.example.', 'ops.sgnp.example']) {
      const res = await ask(domain);
      expect(res.statusCode, domain).toBe(200);
      expect(res.json()).toEqual({ domain: domain.toLowerCase().replace(/\.$/, ''), allowed: true });
    }
  });

  it('allows a custom domain while it is VERIFIED or ACTIVE, and refuses it in any other status', async () => {
    const org = await svc.createOrganization('Tls');
    const statuses = { VERIFIED: 200, ACTIVE: 200, PENDING: 404, FAILED: 404, REVOKED: 404 } as const;
    for (const [status, expected] of Object.entries(statuses)) {
      const domainName = `go-${status.toLowerCase()}.tls-customer.com`;
      await domainWithStatus(org.id, domainName, status);
      const res = await ask(domainName);
      expect(res.statusCode, `${status}: ${res.body}`).toBe(expected);
      if (expected === 404) expectError(res, 404, { code: 'DOMAIN_NOT_SERVED' });
    }
  });

  it('refuses a name nobody registered, and a question without a name', async () => {
    expectError(await ask('pointed-at-us.example.net'), 404, { code: 'DOMAIN_NOT_SERVED' });
    const res = await svc.inject({ method: 'GET', url: '/api/tls/ask', headers: { host: '127.0.0.1:8080' } });
    expectError(res, 400, { field: 'domain', code: 'VALIDATION_FAILED' });
  });
});
