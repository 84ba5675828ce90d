// Spec rule: customAlias and a campaign's alias may be any letters, digits, - and _. The service
// refuses only the first path segments it answers itself on that host, and that list is the one
// its route table has: every other alias (app, status, qr, login, www, ...) is created and redirects.
import { beforeAll, describe, expect, it } from 'vitest';
import { CUSTOM_DOMAIN_PATHS, SERVICE_HOST_PATHS } from '../src/core/links/link-rules.js';
import { serviceForFile } from './support/service.js';
import { expectError } from './support/error-body.js';

const BASE = 'https://sgnp.example';
const DOMAIN = 'go.brand-reserved.example';

let org: { id: number; apiKey: string };

const svc = serviceForFile({ PUBLIC_BASE_URL: BASE });

beforeAll(async () => {
  org = await svc.createOrganization('Acme', 'FREE');
  const domain = await svc.admin('POST', `/organizations/${org.id}/custom-domains`, { domainName: DOMAIN });
  expect(domain.statusCode, domain.body).toBe(201);
  const active = await svc.admin('PUT', `/custom-domains/${domain.json().id}/status`, { status: 'ACTIVE' });
  expect(active.statusCode, active.body).toBe(200);
});

/** First path segments of every route the app has, the link routes (`/:slug`) and CORS (`*`) aside. */
function routedFirstSegments(): string[] {
  const tree = svc.container.app.printRoutes({ commonPrefix: false });
  const lines = tree.split('\n');
  // With a route at / itself the tree's root is that route and the first segments its children.
  const top = /^[├└]── \/ \(/.test(lines[0] ?? '') ? /^ {4}[├└]── ([^/\s(]+)/ : /^[├└]── \/([^/\s(]+)/;
  const segments = new Set<string>();
  for (const line of lines) {
    const segment = top.exec(line)?.[1];
    if (segment && !segment.startsWith(':') && segment !== '*') segments.add(segment.toLowerCase());
  }
  return [...segments].sort();
}

const get = (path: string, host?: string) => svc.inject({ method: 'GET', url: path, headers: host ? { host } : {} });

async function createUrl(customAlias: string, customDomainName?: string) {
  return svc.service('POST', '/urls', org.apiKey, {
    url: `https://example.com/${customAlias}`,
    customAlias,
    ...(customDomainName ? { customDomainName } : {}),
  });
}

async function createCampaign(alias: string, customDomainName?: string) {
  return svc.service('POST', '/campaigns', org.apiKey, {
    name: `Campaign ${alias}`,
    alias,
    originalUrl: `https://example.com/c/${alias}`,
    ...(customDomainName ? { customDomainName } : {}),
  });
}

/** Paths the service used to refuse as aliases although nothing of it answers there ('dashboard' is the campaign test's). */
const FORMERLY_RESERVED = [
  'app',
  'apps',
  'status',
  'qr',
  'login',
  'logout',
  'signup',
  'www',
  'health',
  'admin',
  'static',
  'assets',
  'public',
  'deeplink',
  'well-known',
];

describe('customAlias and alias: only the paths the service answers on that host are reserved', () => {
  it("the service host's reserved list is the first segments of its route table", () => {
    expect(routedFirstSegments()).toEqual([...SERVICE_HOST_PATHS].sort());
    for (const path of CUSTOM_DOMAIN_PATHS) expect(SERVICE_HOST_PATHS).toContain(path);
  });

  it('every formerly reserved alias is created as a short URL and its short URL redirects', async () => {
    for (const alias of FORMERLY_RESERVED) {
      const created = await createUrl(alias);
      expect(created.statusCode, `${alias}: ${created.body}`).toBe(201);
      expect(created.json().shortUrl).toBe(`${BASE}/${alias}`);
      const click = await get(`/${alias}`);
      expect(click.statusCode, alias).toBe(302);
      expect(click.headers.location).toBe(`https://example.com/${alias}`);
    }
  });

  it('a formerly reserved word is a campaign alias too, chosen or made from the name', async () => {
    const created = await createCampaign('Admin_Tools');
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().campaignUrl).toBe(`${BASE}/Admin_Tools`);
    const click = await get('/Admin_Tools?cid=u1');
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe('https://example.com/c/Admin_Tools?cid=u1');
    const named = await svc.service('POST', '/campaigns', org.apiKey, {
      name: 'Dashboard',
      originalUrl: 'https://example.com/dashboard',
    });
    expect(named.statusCode, named.body).toBe(201);
    expect(named.json().alias).toBe('dashboard');
    expect((await get('/dashboard')).headers.location).toBe('https://example.com/dashboard');
  });

  it('refuses, whatever the case, an alias on a path the service answers on its own host', async () => {
    for (const path of SERVICE_HOST_PATHS.filter((p) => /^[A-Za-z0-9_-]+$/.test(p))) {
      for (const alias of [path, path.toUpperCase()]) {
        const body = expectError(await createUrl(alias), 400, { field: 'body.customAlias', code: 'VALIDATION_FAILED' });
        expect(body.message).toContain('reserved');
        expectError(await createCampaign(alias), 400, { field: 'body.alias', code: 'VALIDATION_FAILED' });
      }
    }
  });

  it("on a custom domain the operator's paths (docs, console, metrics, readyz, sso) are the customer's links", async () => {
    const free = SERVICE_HOST_PATHS.filter(
      (p) => !(CUSTOM_DOMAIN_PATHS as readonly string[]).includes(p) && /^[A-Za-z0-9_-]+$/.test(p),
    );
    expect(free.sort()).toEqual(['console', 'docs', 'metrics', 'readyz', 'sso']);
    for (const alias of [...free, 'app', 'status']) {
      const created = await createUrl(alias, DOMAIN);
      expect(created.statusCode, `${alias}: ${created.body}`).toBe(201);
      expect(created.json().shortUrl).toBe(`https://${DOMAIN}/${alias}`);
      const click = await get(`/${alias}`, DOMAIN);
      expect(click.statusCode, alias).toBe(302);
      expect(click.headers.location).toBe(`https://example.com/${alias}`);
    }
    // The service's own host keeps its pages.
    expect((await get('/healthz')).statusCode).toBe(200);
    expect((await get('/readyz')).statusCode).toBe(200);
  });

  it('on a custom domain refuses only the paths that answer there: the APIs, the SDK script, the health probe, well-known files', async () => {
    for (const alias of CUSTOM_DOMAIN_PATHS.filter((p) => /^[A-Za-z0-9_-]+$/.test(p))) {
      expectError(await createUrl(alias, DOMAIN), 400, { field: 'body.customAlias' });
      expectError(await createCampaign(alias, DOMAIN), 400, { field: 'body.alias' });
    }
    expect((await get('/healthz', DOMAIN)).statusCode).toBe(200);
    expect((await get('/api/v1/sdk/web/version', DOMAIN)).statusCode).toBe(200);
    expect((await get('/sdk/web/CHANGELOG.md', DOMAIN)).statusCode).toBe(200);
    expect((await get('/.well-known/assetlinks.json', DOMAIN)).statusCode).toBe(200);
  });

  it('publishes the reserved paths in the OpenAPI description of customAlias and alias', async () => {
    const doc = JSON.stringify((await get('/openapi.json')).json());
    for (const path of SERVICE_HOST_PATHS) expect(doc).toContain(path);
    expect(doc).toContain(`${CUSTOM_DOMAIN_PATHS.join(', ')} on a custom domain`);
  });
});
