// The console's routing tester over HTTP: a member describes a visitor and the service says where
// the rules and variants in the editor (saved or not) send them, by the redirect's own routing:
// the first rule met wins, a country comes from the address when none is given, a variant is the
// one the redirect picks for the same visitor of the same link. Refused rules name their field as
// saving them would; a member outside the organization, or without a session, gets nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { consoleMember, type ConsoleCall } from './support/console-api.js';
import { UA } from './support/deep-links.js';
import { expectError } from './support/error-body.js';
import { serviceForFile } from './support/service.js';

const HOST = 'sgnp.example';
const BASE = `https://${HOST}`;
const KR = '211.234.10.1';

const svc = serviceForFile({ PUBLIC_BASE_URL: BASE });
let org: { id: number; apiKey: string };
let analyst: ConsoleCall;
let stranger: ConsoleCall;

beforeAll(async () => {
  org = await svc.createOrganization('Tester', 'PRO');
  const other = await svc.createOrganization('Other', 'PRO');
  analyst = await consoleMember(svc, BASE, { organizationId: org.id, email: 'analyst@example.com', role: 'analyst' });
  stranger = await consoleMember(svc, BASE, { organizationId: other.id, email: 'other@example.com', role: 'owner' });
});

const rules = [
  {
    conditions: { countries: ['JP'], deviceTypes: ['mobile'], languages: ['ja'] },
    url: 'https://example.com/jp-phone',
  },
  { conditions: { countries: ['KR'] }, url: 'https://example.com/kr' },
  { conditions: { query: { promo: 'spring' }, after: '2026-03-01T00:00:00Z' }, url: 'https://example.com/spring' },
];
const variants = [
  { url: 'https://example.com/a', weight: 50 },
  { url: 'https://example.com/b', weight: 50 },
];
const test = (call: ConsoleCall, body: Record<string, unknown>, orgId = org.id) =>
  call('POST', `/organizations/${orgId}/routing/test`, body);

describe('routing tester', () => {
  it('sends a visitor from Japan on a phone speaking Japanese to the first rule they meet', async () => {
    const res = await test(analyst, {
      originalUrl: 'https://example.com/home',
      routingRules: rules,
      variants: [],
      visitor: { country: 'jp', deviceType: 'mobile', os: 'android', language: 'ja-JP,ja;q=0.9' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ url: 'https://example.com/jp-phone', route: 'rule:0' });
  });

  it('reads the country from the address and the device from the user agent when they are not given', async () => {
    const res = await test(analyst, {
      originalUrl: 'https://example.com/home',
      routingRules: rules,
      visitor: { address: KR, userAgent: UA.iPhone, language: 'ja' },
    });
    expect(res.json()).toEqual({ url: 'https://example.com/kr', route: 'rule:1' });
  });

  it('checks the browser (given, or the family the user agent names) and the referrer host', async () => {
    const routingRules = [
      { conditions: { referrers: ['twitter.com'] }, url: 'https://example.com/twitter' },
      { conditions: { browsers: ['Samsung Internet'] }, url: 'https://example.com/samsung' },
      { conditions: { browsers: ['safari'] }, url: 'https://example.com/safari' },
      { conditions: { regions: ['KR-11'], cities: ['Seoul'] }, url: 'https://example.com/seoul' },
    ];
    const to = async (visitor: Record<string, unknown>) =>
      (await test(analyst, { originalUrl: 'https://example.com/home', routingRules, visitor })).json();
    expect(await to({ referrer: 'mobile.twitter.com', browser: 'Safari' })).toEqual({
      url: 'https://example.com/twitter',
      route: 'rule:0',
    });
    expect(await to({ referrer: 'https://twitter.com/x/status/1' })).toMatchObject({ route: 'rule:0' });
    expect(await to({ referrer: 'https://news.example/', browser: 'Samsung Internet' })).toMatchObject({
      route: 'rule:1',
    });
    expect(await to({ userAgent: UA.iPhone })).toMatchObject({ route: 'rule:2' });
    // A region and city given by hand match although the bundled database knows neither.
    expect(await to({ region: 'kr-11', city: 'seoul' })).toMatchObject({ route: 'rule:3' });
    expect(await to({ address: KR })).toMatchObject({ route: 'original' });
    const refused = await test(analyst, {
      originalUrl: 'https://example.com/home',
      routingRules,
      visitor: { browser: 'Netscape' },
    });
    expectError(refused, 400);
  });

  it('checks the query and the time of the click', async () => {
    const body = (at: string) => ({
      originalUrl: 'https://example.com/home',
      routingRules: rules,
      visitor: { country: 'US', at, query: { promo: 'spring' } },
    });
    expect((await test(analyst, body('2026-03-02T00:00:00Z'))).json()).toEqual({
      url: 'https://example.com/spring',
      route: 'rule:2',
    });
    expect((await test(analyst, body('2026-02-28T00:00:00Z'))).json()).toEqual({
      url: 'https://example.com/home',
      route: 'original',
    });
  });

  it('picks the variant the redirect picks for the same visitor of the same link', async () => {
    const link = await svc.service('POST', '/urls', org.apiKey, { url: 'https://example.com/home', variants });
    expect(link.statusCode, link.body).toBe(201);
    const { id, shortCode } = link.json() as { id: number; shortCode: string };
    const agents = [UA.iPhone, UA.pixel, UA.desktop, 'curl/8.0', 'Mozilla/5.0 (X11; Linux x86_64)'];
    const seen = new Set<string>();
    for (const userAgent of agents) {
      const click = await svc.inject({
        method: 'GET',
        url: `/${shortCode}`,
        remoteAddress: KR,
        headers: { host: HOST, 'user-agent': userAgent },
      });
      expect(click.statusCode).toBe(302);
      const res = await test(analyst, {
        linkId: id,
        originalUrl: 'https://example.com/home',
        variants,
        visitor: { address: KR, userAgent },
      });
      const { url, route } = res.json() as { url: string; route: string };
      expect(route).toMatch(/^variant:[01]$/);
      expect(click.headers.location).toBe(url);
      seen.add(url);
    }
    expect(seen.size).toBe(2);
  });

  it('refuses rules as saving them would, naming the field', async () => {
    const res = await test(analyst, {
      originalUrl: 'https://example.com/home',
      routingRules: [{ conditions: { countries: ['ZZ'] }, url: 'ftp://example.com' }],
      variants: [
        { url: 'https://example.com/a', weight: 60 },
        { url: 'https://example.com/b', weight: 50 },
      ],
      visitor: {},
    });
    const body = expectError(res, 400);
    const fields = (body.details ?? []).map((d) => d.field);
    expect(fields).toEqual(
      expect.arrayContaining(['routingRules.0.conditions.countries.0', 'routingRules.0.url', 'variants']),
    );
  });

  it('answers nothing to a member of another organization or a caller without a session', async () => {
    const body = { originalUrl: 'https://example.com/home', routingRules: rules, visitor: {} };
    expectError(await test(stranger, body), 404);
    const anonymous = await svc.inject({
      method: 'POST',
      url: `/console/api/organizations/${org.id}/routing/test`,
      headers: { origin: BASE },
      payload: body,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
