// The operator's surfaces answer only on the service's own host: on a customer's custom domain
// /docs/…, the operator API and any other path below them are the same 404 (with the error body)
// as a path that does not exist, and a one-segment path (/docs, /console, /metrics, /nope) is the
// visitor's 404 page, as any link that is not there; the domain keeps serving its links, /healthz
// and the customer-facing APIs. Probes and scrapers inside the deployment (an address, localhost, a
// single-label service name, OPERATOR_HOSTS) still reach them.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './support/error-body.js';
import { ADMIN_TOKEN, serviceForFile } from './support/service.js';

const DOMAIN = 'links.acme-shop.com';
const OPERATOR = [
  { url: '/docs/' },
  { url: '/docs/static/swagger-ui.css' },
  { url: '/docs/json' },
  { url: '/openapi.json' },
  { url: '/metrics' },
  { url: '/readyz' },
  { url: '/api/admin/v1/organizations/1', auth: true },
];

const ONE_SEGMENT = /^\/[^/]+$/;

let apiKey: string;
let campaignAlias: string;

const get = (url: string, host: string, headers: Record<string, string> = {}) =>
  svc.inject({ method: 'GET', url, headers: { host, ...headers } });
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

const svc = serviceForFile({
  PUBLIC_BASE_URL: 'https://sgnp.example',
  OPERATOR_HOSTS: 'signpost.monitoring.svc',
});

beforeAll(async () => {
  const org = await svc.createOrganization('Acme', 'PRO');
  apiKey = org.apiKey;
  // The owner's language differs from the service's (Korean), so the 404 page shows whose it speaks.
  const language = await svc.admin('PUT', `/organizations/${org.id}/language`, { defaultLanguage: 'en' });
  expect(language.statusCode, language.body).toBe(200);
  const domain = (
    await svc.admin('POST', `/organizations/${org.id}/custom-domains`, { domainName: DOMAIN })
  ).json() as { id: number };
  expect((await svc.admin('PUT', `/custom-domains/${domain.id}/status`, { status: 'VERIFIED' })).statusCode).toBe(200);
  campaignAlias = (
    await svc.createCampaign(
      { apiKey },
      { name: 'Sale', originalUrl: 'https://acme-shop.com/sale', customDomainName: DOMAIN },
    )
  ).alias;
});

describe('operator surfaces', () => {
  it('are a 404 with the error body below their first segment on a customer custom domain, in any case of the host', async () => {
    for (const host of [DOMAIN, 'LINKS.Acme-Shop.com', `${DOMAIN}:443`, 'another-domain.example']) {
      for (const { url, auth } of OPERATOR.filter(({ url }) => !ONE_SEGMENT.test(url))) {
        expectError(await get(url, host, auth ? admin : {}), 404, { code: 'ROUTE_NOT_FOUND' });
      }
    }
  });

  it('answer on the service host, to probes by address or service name, and on OPERATOR_HOSTS', async () => {
    for (const host of [
      'sgnp.example',
      'SGNP.example:443',
      '127.0.0.1:8080',
      '[::1]:8080',
      'localhost',
      '10.1.2.3:8080',
      'signpost:8080',
      'signpost.monitoring.svc',
      'signpost.prod.svc.cluster.local:8080',
      'metrics.internal',
    ]) {
      for (const { url, auth } of OPERATOR) {
        const res = await get(url, host, auth ? admin : {});
        expect(res.statusCode, `${url} on ${host}: ${res.body.slice(0, 200)}`).toBe(200);
      }
    }
  });

  it('leave the custom domain its links, /healthz and the customer APIs', async () => {
    const click = await get(`/${campaignAlias}`, DOMAIN, {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/122.0.0.0 Safari/537.36',
    });
    expect(click.statusCode, click.body).toBe(302);
    expect(click.headers.location).toBe('https://acme-shop.com/sale');
    expect((await get('/healthz', DOMAIN)).statusCode).toBe(200);
    expect((await get('/api/v1/service/usage', DOMAIN, { 'x-api-key': apiKey })).statusCode).toBe(200);
    expect((await get('/.well-known/assetlinks.json', DOMAIN)).statusCode).toBe(200);
  });
});

describe('a one-segment path with no link there on a custom domain', () => {
  // The operator's one-segment paths, the service's reserved ones, one no link can take, and /nope.
  const MISSES = [
    '/docs',
    '/console',
    '/openapi.json',
    '/metrics',
    '/readyz',
    '/sso',
    '/api',
    '/sdk',
    '/robots.txt',
    '/nope',
  ];
  const PAGES: Array<[string | undefined, string, string]> = [
    [undefined, 'en', 'Link not found'],
    ['ja-JP,ja;q=0.9', 'ja', 'リンクが見つかりません'],
  ];

  it("is the 404 page, in the visitor's language or else the domain owner's, as at /nope", async () => {
    for (const host of [DOMAIN, 'LINKS.Acme-Shop.com', `${DOMAIN}:443`]) {
      for (const url of MISSES) {
        for (const [acceptLanguage, language, heading] of PAGES) {
          const res = await get(url, host, acceptLanguage ? { 'accept-language': acceptLanguage } : {});
          expect(res.statusCode, `${url} on ${host}`).toBe(404);
          expect(res.headers['content-type'], `${url} on ${host}`).toBe('text/html; charset=utf-8');
          expect(res.headers['content-language']).toBe(language);
          expect(res.body).toContain(`<h1>${heading}</h1>`);
        }
      }
    }
    const head = await svc.inject({ method: 'HEAD', url: '/docs', headers: { host: DOMAIN } });
    expect(head.statusCode).toBe(404);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it("is the 404 page in the service's language on a host that is no registered domain", async () => {
    for (const url of MISSES) {
      const res = await get(url, 'another-domain.example');
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain('<h1>링크를 찾을 수 없습니다</h1>');
    }
  });

  it("stays the API's JSON 404 on the service's own host, where those paths are the service's", async () => {
    for (const url of ['/api', '/sso', '/sdk', '/robots.txt']) {
      expectError(await get(url, 'sgnp.example'), 404, { code: 'ROUTE_NOT_FOUND' });
    }
  });
});
