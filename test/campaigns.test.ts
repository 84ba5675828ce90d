// Service API campaigns (/api/v1/service/campaigns) as an API user sees them: the record with its
// linked apps, the alias generated from the name, every limit at its boundary, the alias namespace
// shared with short URLs, update, delete, the paged list and the (pending) statistics routes.
import { beforeAll, describe, expect, it } from 'vitest';
import { consoleMember } from './support/console-api.js';
import { serviceForFile } from './support/service.js';
import { expectError, ISO_UTC, type HttpAnswer } from './support/error-body.js';

const BASE = 'https://sgnp.example';

/** The organization most tests act as. */
let acme: Org;
/** A second organization, to check that nothing crosses the tenant line. */
let rival: Org;

interface Org {
  id: number;
  apiKey: string;
}

type Res = HttpAnswer;

type Campaign = Record<string, unknown> & {
  id: number;
  alias: string;
  name: string;
  createdAt: string;
  updatedAt: string;
};

const svc = serviceForFile({ PUBLIC_BASE_URL: BASE });

beforeAll(async () => {
  acme = await svc.createOrganization('Acme Retail', 'FREE');
  rival = await svc.createOrganization('Rival Retail', 'FREE');
});

// ---------------------------------------------------------------------------------------------
// Helpers

const SPEC_FIELDS = [
  'id',
  'name',
  'alias',
  'originalUrl',
  'createdAt',
  'updatedAt',
  'expiresAt',
  'iosAppId',
  'iosAppName',
  'iosAppIconUrl',
  'androidAppId',
  'androidAppName',
  'androidAppIconUrl',
  'username',
  'utmSource',
  'utmMedium',
  'appPath',
  'customDomainName',
  'iosDeepLinkPath',
  'androidDeepLinkPath',
  'clickCount',
  'goalType',
];

/** The link-management fields (contract: "Link management") every record shows. */
const MANAGED_FIELDS = [
  'tags',
  'passwordProtected',
  'clickLimit',
  'clickLimitUrl',
  'remainingClicks',
  'expiredUrl',
  'note',
  'archived',
  // contract: "Routing rules and A/B tests"
  'routingRules',
  'variants',
  // extension: web clicks carry a click id (signpost_token) for their conversions
  'conversionTracking',
];

const PAGE_KEYS = ['content', 'first', 'last', 'page', 'size', 'totalElements', 'totalPages'];

/** A code generated when the name gives no usable alias. */
const RANDOM_CODE = /^[0-9A-Za-z]{7}$/;

const createCampaign = (body: unknown, org: Org = acme): Promise<Res> =>
  svc.service('POST', '/campaigns', org.apiKey, body);

let nameCounter = 0;
/** Creates a campaign and returns its record, failing the test with the answer when it is not 201. */
async function newCampaign(body: Record<string, unknown> = {}, org: Org = acme): Promise<Campaign> {
  const res = await createCampaign(
    { name: `Campaign ${++nameCounter}`, originalUrl: 'https://example.com/landing', ...body },
    org,
  );
  expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
  return res.json();
}

const getCampaign = (id: number, org: Org = acme) => svc.service('GET', `/campaigns/${id}`, org.apiKey);
const putCampaign = (id: number, body: unknown, org: Org = acme) =>
  svc.service('PUT', `/campaigns/${id}`, org.apiKey, body);
const deleteCampaign = (id: number, org: Org = acme) => svc.service('DELETE', `/campaigns/${id}`, org.apiKey);
const listCampaigns = (query: string, org: Org = acme) =>
  svc.service('GET', `/campaigns${query ? `?${query}` : ''}`, org.apiKey);

async function expectCreateRefused(body: Record<string, unknown>, field: string) {
  expectError(await createCampaign({ name: 'Refused', originalUrl: 'https://example.com/x', ...body }), 400, { field });
}

let aliasCounter = 0;
/** An alias no other test uses (aliases are unique per domain across organizations). */
const uniqueAlias = (prefix: string) => `${prefix}-${++aliasCounter}`;

async function newApp(org: Org, platform: 'IOS' | 'ANDROID', appName: string, appIconUrl?: string) {
  const res = await svc.service('POST', '/mobile-apps', org.apiKey, {
    platform,
    appName,
    bundleId: platform === 'IOS' ? 'com.example.ios' : 'com.example.android',
    ...(appIconUrl ? { appIconUrl } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; path: string; appName: string };
}

async function newDomain(org: Org, domainName: string, status?: string) {
  const res = await svc.admin('POST', `/organizations/${org.id}/custom-domains`, { domainName });
  expect(res.statusCode, res.body).toBe(201);
  const domain = res.json() as { id: number; domainName: string };
  if (status) expect((await svc.admin('PUT', `/custom-domains/${domain.id}/status`, { status })).statusCode).toBe(200);
  return domain;
}

const urlOfLength = (n: number) => {
  const prefix = 'https://example.com/';
  return prefix + 'a'.repeat(n - prefix.length);
};

// ---------------------------------------------------------------------------------------------

describe('create', () => {
  it('answers 201 with every field of the record and campaignUrl', async () => {
    const res = await createCampaign({
      name: 'Launch Day',
      alias: 'launch-day',
      originalUrl: 'https://example.com/launch?x=1',
    });
    expect(res.statusCode, res.body).toBe(201);
    const c = res.json();
    expect(Object.keys(c).sort()).toEqual([...SPEC_FIELDS, 'campaignUrl', ...MANAGED_FIELDS].sort());
    expect(c).toMatchObject({
      name: 'Launch Day',
      alias: 'launch-day',
      originalUrl: 'https://example.com/launch?x=1',
      campaignUrl: `${BASE}/launch-day`,
      username: `API key ${acme.apiKey.slice(0, 12)}…`,
      clickCount: 0,
      expiresAt: null,
      iosAppId: null,
      iosAppName: null,
      iosAppIconUrl: null,
      androidAppId: null,
      androidAppName: null,
      androidAppIconUrl: null,
      utmSource: null,
      utmMedium: null,
      appPath: null,
      customDomainName: null,
      iosDeepLinkPath: null,
      androidDeepLinkPath: null,
      goalType: null,
    });
    expect(typeof c.id).toBe('number');
    expect(c.createdAt).toMatch(ISO_UTC);
    expect(c.updatedAt).toMatch(ISO_UTC);
  });

  it('reads back the same record it created', async () => {
    const c = await newCampaign({
      goalType: 'purchase',
      expiresAt: '2035-03-04T05:06:07Z',
      utmSource: 'news',
      utmMedium: 'email',
    });
    const read = await getCampaign(c.id);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(c);
    expect(c).toMatchObject({
      goalType: 'purchase',
      expiresAt: '2035-03-04T05:06:07.000Z',
      utmSource: 'news',
      utmMedium: 'email',
    });
  });

  it("username (the creator's user name): the name of the Service API key that created it, its first characters when unnamed", async () => {
    const key = (await svc.admin('POST', `/organizations/${rival.id}/api-keys`)).json() as {
      id: number;
      apiKey: string;
    };
    await svc.container.postgres.sql`update api_keys set name = 'Launch bot' where id = ${key.id}`;
    expect((await newCampaign({}, { id: rival.id, apiKey: key.apiKey })).username).toBe('Launch bot');
    expect((await newCampaign({}, rival)).username).toBe(`API key ${rival.apiKey.slice(0, 12)}…`);
  });

  it("username (the creator's user name): the console member who created it, by name, else by address", async () => {
    const named = await consoleMember(svc, BASE, {
      organizationId: acme.id,
      email: 'maker@example.com',
      role: 'developer',
      name: 'Kim Minji',
    });
    const made = await named('POST', `/organizations/${acme.id}/campaigns`, {
      name: 'Console made',
      originalUrl: 'https://example.com/console',
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().username).toBe('Kim Minji');
    expect((await getCampaign(made.json().id)).json().username).toBe('Kim Minji');
    const unnamed = await consoleMember(svc, BASE, {
      organizationId: acme.id,
      email: 'nameless@example.com',
      role: 'developer',
    });
    const other = await unnamed('POST', `/organizations/${acme.id}/campaigns`, {
      name: 'Console made 2',
      originalUrl: 'https://example.com/console',
    });
    expect(other.json().username).toBe('nameless@example.com');
  });

  it("username of a campaign made before creators were recorded: the organization's name, as it was", async () => {
    const c = await newCampaign({});
    await svc.container.postgres.sql`update campaigns set created_by_api_key_id = null where id = ${c.id}`;
    expect((await getCampaign(c.id)).json().username).toBe('Acme Retail');
  });

  it('stores the extension fields: UTM, deep-link paths', async () => {
    const c = await newCampaign({
      utmSource: 'sms',
      utmMedium: 'push',
      iosDeepLinkPath: 'promo/7',
      androidDeepLinkPath: '/promo/7?ref=c',
    });
    expect(c).toMatchObject({
      utmSource: 'sms',
      utmMedium: 'push',
      iosDeepLinkPath: 'promo/7',
      androidDeepLinkPath: '/promo/7?ref=c',
    });
    await expectCreateRefused({ iosDeepLinkPath: 'myapp://promo/7' }, 'iosDeepLinkPath');
    await expectCreateRefused({ utmSource: 'u'.repeat(101) }, 'utmSource');
  });
});

describe('alias generated from the name', () => {
  it("turns 'Summer Sale 2025' into summer-sale-2025, and a second one into a suffixed alias", async () => {
    const first = await newCampaign({ name: 'Summer Sale 2025' });
    expect(first.alias).toBe('summer-sale-2025');
    expect(first.campaignUrl).toBe(`${BASE}/summer-sale-2025`);
    const second = await newCampaign({ name: 'Summer Sale 2025' });
    expect(second.alias).toMatch(/^summer-sale-2025-[0-9a-z]{5}$/);
    expect(second.campaignUrl).toBe(`${BASE}/${second.alias}`);
    const third = await newCampaign({ name: 'summer sale 2025' });
    expect(new Set([first.alias, second.alias, third.alias]).size).toBe(3);
  });

  it('drops accents rather than splitting the word', async () => {
    expect((await newCampaign({ name: 'Café Crème' })).alias).toBe('cafe-creme');
  });

  it('gives a Korean-only name a random code', async () => {
    const c = await newCampaign({ name: '여름 세일' });
    expect(c.alias).toMatch(RANDOM_CODE);
    expect(c.name).toBe('여름 세일');
    expect(c.campaignUrl).toBe(`${BASE}/${c.alias}`);
  });

  it('gives a random code when the name would make a reserved or too short alias', async () => {
    for (const name of ['API', 'Docs', 'ab', '!!!']) {
      expect((await newCampaign({ name })).alias, name).toMatch(RANDOM_CODE);
    }
  });

  it('keeps a generated alias within the alias limit for a 50-character name', async () => {
    const c = await newCampaign({ name: 'Long Name '.repeat(5) });
    expect(c.name).toBe('Long Name '.repeat(5).trim());
    expect(c.alias.length).toBeLessThanOrEqual(50);
    expect(c.alias).toMatch(/^long-name(-long-name)*$/);
  });

  it("steps around a short URL's customAlias of the same text", async () => {
    const url = await svc.service('POST', '/urls', rival.apiKey, {
      url: 'https://example.com/w',
      customAlias: 'winter-deals',
    });
    expect(url.statusCode, url.body).toBe(201);
    expect((await newCampaign({ name: 'Winter Deals' })).alias).toMatch(/^winter-deals-[0-9a-z]{5}$/);
  });
});

describe('linked apps', () => {
  let ios: { id: number; path: string; appName: string };
  let android: { id: number; path: string; appName: string };

  beforeAll(async () => {
    ios = await newApp(acme, 'IOS', 'Acme Shop iOS', 'https://cdn.example.com/ios.png');
    android = await newApp(acme, 'ANDROID', 'Acme Shop Android', 'https://cdn.example.com/android.png');
  });

  it('fills app names, icons and appPath from the linked apps', async () => {
    const c = await newCampaign({ iosAppId: ios.id, androidAppId: android.id });
    expect(c).toMatchObject({
      iosAppId: ios.id,
      iosAppName: 'Acme Shop iOS',
      iosAppIconUrl: 'https://cdn.example.com/ios.png',
      androidAppId: android.id,
      androidAppName: 'Acme Shop Android',
      androidAppIconUrl: 'https://cdn.example.com/android.png',
      appPath: ios.path,
    });
    expect((await getCampaign(c.id)).json()).toEqual(c);
  });

  it('takes appPath from the Android app when it is the only one', async () => {
    const c = await newCampaign({ androidAppId: android.id });
    expect(c).toMatchObject({
      iosAppId: null,
      iosAppName: null,
      iosAppIconUrl: null,
      androidAppId: android.id,
      appPath: android.path,
    });
  });

  it('refuses an app of the other platform, of another organization, or unknown', async () => {
    const rivalApp = await newApp(rival, 'ANDROID', 'Rival App');
    expectError(await createCampaign({ name: 'x', originalUrl: 'https://example.com/', iosAppId: android.id }), 400, {
      field: 'iosAppId',
    });
    expectError(await createCampaign({ name: 'x', originalUrl: 'https://example.com/', androidAppId: ios.id }), 400, {
      field: 'androidAppId',
    });
    expectError(
      await createCampaign({ name: 'x', originalUrl: 'https://example.com/', androidAppId: rivalApp.id }),
      400,
      { field: 'androidAppId', code: 'APP_NOT_FOUND' },
    );
    expectError(await createCampaign({ name: 'x', originalUrl: 'https://example.com/', iosAppId: 987654321 }), 400, {
      field: 'iosAppId',
      code: 'APP_NOT_FOUND',
    });
  });

  it('links and unlinks apps on update', async () => {
    const c = await newCampaign();
    const linked = (await putCampaign(c.id, { iosAppId: ios.id })).json();
    expect(linked).toMatchObject({ iosAppId: ios.id, iosAppName: 'Acme Shop iOS', appPath: ios.path });
    expectError(await putCampaign(c.id, { androidAppId: ios.id }), 400, { field: 'androidAppId' });
    const unlinked = (await putCampaign(c.id, { iosAppId: null })).json();
    expect(unlinked).toMatchObject({ iosAppId: null, iosAppName: null, iosAppIconUrl: null, appPath: null });
  });
});

describe('custom domains', () => {
  it('puts the campaign on a verified domain of the organization', async () => {
    const domain = await newDomain(acme, 'go.acme-retail.com', 'VERIFIED');
    const c = await newCampaign({ alias: 'on-domain', customDomainName: domain.domainName });
    expect(c).toMatchObject({
      customDomainName: 'go.acme-retail.com',
      campaignUrl: 'https://go.acme-retail.com/on-domain',
    });
    // The same alias is free on the platform domain.
    expect((await newCampaign({ alias: 'on-domain' })).campaignUrl).toBe(`${BASE}/on-domain`);
  });

  it("refuses a PENDING domain and another organization's verified one", async () => {
    const pending = await newDomain(acme, 'pending.acme-retail.com');
    const theirs = await newDomain(rival, 'go.rival-retail.com', 'ACTIVE');
    for (const customDomainName of [pending.domainName, theirs.domainName]) {
      expectError(await createCampaign({ name: 'x', originalUrl: 'https://example.com/', customDomainName }), 400, {
        field: 'customDomainName',
      });
    }
  });
});

describe('create: limits', () => {
  it('requires a name of at most 50 characters', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: null }, { name: 42 }]) {
      expectError(await createCampaign({ originalUrl: 'https://example.com/', ...body }), 400, { field: 'name' });
    }
    expect((await newCampaign({ name: 'n'.repeat(50) })).name).toBe('n'.repeat(50));
    await expectCreateRefused({ name: 'n'.repeat(51) }, 'name');
  });

  it('takes an alias of 50 characters and refuses 51', async () => {
    const fifty = `${uniqueAlias('fifty')}-`.padEnd(50, 'x');
    expect(fifty).toHaveLength(50);
    const c = await newCampaign({ alias: fifty });
    expect(c.alias).toBe(fifty);
    expect(c.campaignUrl).toBe(`${BASE}/${fifty}`);
    await expectCreateRefused({ alias: 'a'.repeat(51) }, 'alias');
  });

  it('refuses an alias with characters other than letters, digits, - and _', async () => {
    for (const alias of ['a.b', 'a/b', 'a b', 'café', '여름', 'a?b', '']) {
      await expectCreateRefused({ alias }, 'alias');
    }
    const ok = uniqueAlias('Mixed_Case-09');
    expect((await newCampaign({ alias: ok })).alias).toBe(ok);
  });

  it('refuses reserved aliases, whatever their case', async () => {
    for (const alias of ['api', 'docs', 'healthz', 'sso', '.well-known', 'console', 'API', 'Console']) {
      await expectCreateRefused({ alias }, 'alias');
    }
  });

  it('requires an https originalUrl of at most 1000 characters', async () => {
    for (const body of [{}, { originalUrl: '' }, { originalUrl: null }]) {
      expectError(await createCampaign({ name: 'x', ...body }), 400, { field: 'originalUrl' });
    }
    for (const originalUrl of [
      'http://example.com/',
      'ftp://example.com/',
      'javascript:alert(1)',
      'data:text/html,x',
      'https://a b.com/',
      'https://u:p@example.com/',
      'https://intranet/',
    ]) {
      await expectCreateRefused({ originalUrl }, 'originalUrl');
    }
    expect((await newCampaign({ originalUrl: urlOfLength(1000) })).originalUrl).toBe(urlOfLength(1000));
    await expectCreateRefused({ originalUrl: urlOfLength(1001) }, 'originalUrl');
  });

  it('takes a goalType of 50 characters and refuses 51', async () => {
    expect((await newCampaign({ goalType: 'g'.repeat(50) })).goalType).toBe('g'.repeat(50));
    await expectCreateRefused({ goalType: 'g'.repeat(51) }, 'goalType');
  });

  it('reads expiresAt as ISO-8601 with or without seconds, Z or an offset, and answers it in UTC', async () => {
    const cases: Array<[string, string]> = [
      ['2035-01-02T03:04:05', '2035-01-02T03:04:05.000Z'],
      ['2035-01-02T03:04', '2035-01-02T03:04:00.000Z'],
      ['2035-01-02T03:04:05Z', '2035-01-02T03:04:05.000Z'],
      ['2035-01-02T03:04:05.250Z', '2035-01-02T03:04:05.250Z'],
      ['2035-01-02T10:00:00+09:00', '2035-01-02T01:00:00.000Z'],
      ['2035-01-02T10:00+09:00', '2035-01-02T01:00:00.000Z'],
      ['2035-01-01T22:30:00-05:30', '2035-01-02T04:00:00.000Z'],
    ];
    for (const [input, stored] of cases) {
      const c = await newCampaign({ expiresAt: input });
      expect(c.expiresAt, input).toBe(stored);
      expect((await getCampaign(c.id)).json().expiresAt).toBe(stored);
    }
    expect((await newCampaign({ expiresAt: null })).expiresAt).toBeNull();
  });

  it('refuses a malformed expiresAt', async () => {
    for (const expiresAt of [
      '2035-13-01T00:00:00',
      '2035-02-30T00:00:00',
      '2035-01-02T25:00:00',
      '2035-01-02T10:60',
      '01/02/2035 10:00',
      '2035-01-02 10:00:00',
      'next week',
      '',
      '2035-01-02T10:00:00+09:99',
      '2035-01-02T10:00:00+24:00',
      1_900_000_000,
    ]) {
      await expectCreateRefused({ expiresAt }, 'expiresAt');
    }
  });

  it('refuses an expiresAt in the past', async () => {
    await expectCreateRefused({ expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt');
    await expectCreateRefused({ expiresAt: '2020-01-01T00:00' }, 'expiresAt');
  });
});

describe('alias: one namespace with short URLs', () => {
  it('answers 409 ALIAS_TAKEN for a duplicate alias, in any organization', async () => {
    const alias = uniqueAlias('dup');
    await newCampaign({ alias });
    expectError(await createCampaign({ name: 'Again', alias, originalUrl: 'https://example.com/' }), 409, {
      field: 'alias',
      code: 'ALIAS_TAKEN',
    });
    expectError(await createCampaign({ name: 'Theirs', alias, originalUrl: 'https://example.com/' }, rival), 409, {
      field: 'alias',
      code: 'ALIAS_TAKEN',
    });
  });

  it("answers 409 when a short URL's customAlias holds the alias", async () => {
    const alias = uniqueAlias('url-first');
    const url = await svc.service('POST', '/urls', acme.apiKey, { url: 'https://example.com/u', customAlias: alias });
    expect(url.statusCode, url.body).toBe(201);
    expectError(await createCampaign({ name: 'Clash', alias, originalUrl: 'https://example.com/' }), 409, {
      field: 'alias',
      code: 'ALIAS_TAKEN',
    });
  });

  it('leaves nothing behind when a create is refused for its alias', async () => {
    const org = await svc.createOrganization('Clasher');
    const alias = uniqueAlias('held');
    await newCampaign({ alias });
    expect((await createCampaign({ name: 'Clash', alias, originalUrl: 'https://example.com/' }, org)).statusCode).toBe(
      409,
    );
    expect((await listCampaigns('', org)).json().totalElements).toBe(0);
  });
});

describe('update', () => {
  it('changes name, originalUrl, expiresAt and goalType and keeps the fields left out', async () => {
    const c = await newCampaign({
      alias: uniqueAlias('upd'),
      goalType: 'signup',
      expiresAt: '2035-05-05T05:05:05Z',
      utmSource: 'keep',
    });
    const renamed = await putCampaign(c.id, { name: 'Renamed' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toEqual({ ...c, name: 'Renamed', updatedAt: renamed.json().updatedAt });
    expect(Date.parse(renamed.json().updatedAt)).toBeGreaterThanOrEqual(Date.parse(c.updatedAt));

    const moved = (
      await putCampaign(c.id, {
        originalUrl: 'https://example.com/moved',
        goalType: 'purchase',
        expiresAt: '2036-06-06T06:06',
      })
    ).json();
    expect(moved).toMatchObject({
      name: 'Renamed',
      alias: c.alias,
      campaignUrl: `${BASE}/${c.alias}`,
      originalUrl: 'https://example.com/moved',
      goalType: 'purchase',
      expiresAt: '2036-06-06T06:06:00.000Z',
      utmSource: 'keep',
      createdAt: c.createdAt,
    });
    expect((await getCampaign(c.id)).json()).toEqual(moved);
  });

  it('clears expiresAt and goalType with null', async () => {
    const c = await newCampaign({ goalType: 'signup', expiresAt: '2035-05-05T05:05:05Z' });
    const cleared = await putCampaign(c.id, { expiresAt: null, goalType: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ expiresAt: null, goalType: null, name: c.name });
    expect((await getCampaign(c.id)).json()).toMatchObject({ expiresAt: null, goalType: null });
  });

  it('changes nothing with an empty body', async () => {
    const c = await newCampaign();
    const res = await putCampaign(c.id, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(c);
  });

  it('validates like create and leaves the campaign unchanged on a refusal', async () => {
    const c = await newCampaign({ expiresAt: '2035-01-01T00:00:00Z' });
    for (const [body, field] of [
      [{ name: 'n'.repeat(51) }, 'name'],
      [{ name: '' }, 'name'],
      [{ name: null }, 'name'],
      [{ originalUrl: 'http://example.com/' }, 'originalUrl'],
      [{ originalUrl: urlOfLength(1001) }, 'originalUrl'],
      [{ originalUrl: null }, 'originalUrl'],
      [{ goalType: 'g'.repeat(51) }, 'goalType'],
      [{ expiresAt: '2035-02-30T00:00' }, 'expiresAt'],
      [{ expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt'],
    ] as const) {
      expectError(await putCampaign(c.id, body), 400, { field });
    }
    expect((await getCampaign(c.id)).json()).toEqual(c);
    expect(
      (
        await putCampaign(c.id, { name: 'n'.repeat(50), originalUrl: urlOfLength(1000), goalType: 'g'.repeat(50) })
      ).json(),
    ).toMatchObject({ name: 'n'.repeat(50), originalUrl: urlOfLength(1000), goalType: 'g'.repeat(50) });
  });

  it("answers 404 for an unknown id and for another organization's campaign, which stays unchanged", async () => {
    expectError(await putCampaign(987654321, { name: 'x' }), 404, { code: 'CAMPAIGN_NOT_FOUND' });
    const theirs = await newCampaign({}, rival);
    expectError(await putCampaign(theirs.id, { name: 'Mine now', originalUrl: 'https://evil.example.com/' }), 404, {
      code: 'CAMPAIGN_NOT_FOUND',
    });
    expect((await getCampaign(theirs.id, rival)).json()).toEqual(theirs);
  });
});

describe('read and delete', () => {
  it("answers 404 on read for an unknown id and another organization's campaign, 400 for a bad id", async () => {
    expectError(await getCampaign(987654321), 404, { code: 'CAMPAIGN_NOT_FOUND' });
    const theirs = await newCampaign({}, rival);
    expectError(await getCampaign(theirs.id), 404, { code: 'CAMPAIGN_NOT_FOUND' });
    for (const id of ['abc', '0', '-3']) {
      expectError(await svc.service('GET', `/campaigns/${id}`, acme.apiKey), 400, { field: 'id' });
    }
  });

  it('deletes with 204 and no body; then it is gone and a second delete is 404', async () => {
    const c = await newCampaign();
    const res = await deleteCampaign(c.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expectError(await getCampaign(c.id), 404, { code: 'CAMPAIGN_NOT_FOUND' });
    expectError(await deleteCampaign(c.id), 404, { code: 'CAMPAIGN_NOT_FOUND' });
    expectError(await putCampaign(c.id, { name: 'x' }), 404, { code: 'CAMPAIGN_NOT_FOUND' });
  });

  it('frees the alias for a new campaign or short URL', async () => {
    const alias = uniqueAlias('reuse');
    const first = await newCampaign({ alias });
    expect((await deleteCampaign(first.id)).statusCode).toBe(204);
    const second = await newCampaign({ alias }, rival);
    expect(second.alias).toBe(alias);
    expect((await deleteCampaign(second.id, rival)).statusCode).toBe(204);
    const url = await svc.service('POST', '/urls', acme.apiKey, { url: 'https://example.com/', customAlias: alias });
    expect(url.statusCode, url.body).toBe(201);
  });

  it("answers 404 for another organization's campaign and leaves it in place", async () => {
    const theirs = await newCampaign({}, rival);
    expectError(await deleteCampaign(theirs.id, acme), 404, { code: 'CAMPAIGN_NOT_FOUND' });
    expect((await getCampaign(theirs.id, rival)).json()).toEqual(theirs);
  });
});

describe('list', () => {
  let lister: Org;
  /** Campaigns of `lister`, in creation order. */
  const made: Campaign[] = [];

  beforeAll(async () => {
    lister = await svc.createOrganization('Campaign Lister');
    const bodies: Record<string, unknown>[] = [
      { name: 'Black Friday', alias: uniqueAlias('bf') },
      { name: 'Spring Launch', alias: uniqueAlias('BLACKBIRD') },
      { name: '100% Off', alias: uniqueAlias('hundred') },
      { name: 'a_b names', alias: uniqueAlias('underscore') },
      { name: 'aXb names', alias: uniqueAlias('plain') },
    ];
    for (let i = 0; bodies.length < 23; i++) bodies.push({ name: `Filler ${i}`, alias: uniqueAlias('filler') });
    for (const body of bodies) made.push(await newCampaign(body, lister));
  });

  const ids = (res: Res) => res.json().content.map((c: Campaign) => c.id);
  const newestFirst = () => [...made].reverse().map((c) => c.id);

  it('answers the paged wrapper with exactly its keys, page 0 and size 20 by default', async () => {
    const res = await listCampaigns('', lister);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(PAGE_KEYS);
    expect(body).toMatchObject({ page: 0, size: 20, totalElements: 23, totalPages: 2, first: true, last: false });
    expect(body.content).toHaveLength(20);
    expect(Object.keys(body.content[0]).sort()).toEqual([...SPEC_FIELDS, 'campaignUrl', ...MANAGED_FIELDS].sort());
  });

  it('lists newest first with a stable order across pages, and flags the last page', async () => {
    expect(ids(await listCampaigns('size=100', lister))).toEqual(newestFirst());
    const seen: number[] = [];
    for (let page = 0; page < 3; page++) {
      const body = (await listCampaigns(`page=${page}&size=10`, lister)).json();
      expect(body).toMatchObject({
        page,
        size: 10,
        totalElements: 23,
        totalPages: 3,
        first: page === 0,
        last: page === 2,
      });
      seen.push(...body.content.map((c: Campaign) => c.id));
    }
    expect(seen).toEqual(newestFirst());
    expect((await listCampaigns('page=5&size=10', lister)).json()).toMatchObject({
      content: [],
      first: false,
      last: true,
    });
  });

  it('refuses size and page out of range or not integers', async () => {
    for (const [query, field] of [
      ['size=0', 'size'],
      ['size=101', 'size'],
      ['size=abc', 'size'],
      ['page=-1', 'page'],
      ['page=x', 'page'],
    ]) {
      expectError(await listCampaigns(query!, lister), 400, { field: field! });
    }
    expect((await listCampaigns('size=1', lister)).json()).toMatchObject({ size: 1, totalPages: 23 });
    expect((await listCampaigns('size=100', lister)).json().content).toHaveLength(23);
  });

  it('searches name and alias, case-insensitively', async () => {
    // "black" is in one name and in another campaign's alias.
    expect(ids(await listCampaigns('search=BLACK', lister))).toEqual([made[1]!.id, made[0]!.id]);
    expect(ids(await listCampaigns('search=black%20friday', lister))).toEqual([made[0]!.id]);
    expect(ids(await listCampaigns(`search=${encodeURIComponent(made[2]!.alias.toUpperCase())}`, lister))).toEqual([
      made[2]!.id,
    ]);
    expect((await listCampaigns('search=no-such-campaign', lister)).json()).toMatchObject({
      content: [],
      totalElements: 0,
      totalPages: 0,
    });
  });

  it("treats '%' and '_' in the search as literal characters", async () => {
    expect(ids(await listCampaigns(`search=${encodeURIComponent('%')}`, lister))).toEqual([made[2]!.id]);
    expect(ids(await listCampaigns(`search=${encodeURIComponent('a_b')}`, lister))).toEqual([made[3]!.id]);
  });

  it('takes a search of 100 characters and refuses 101', async () => {
    expect((await listCampaigns(`search=${'s'.repeat(100)}`, lister)).statusCode).toBe(200);
    expectError(await listCampaigns(`search=${'s'.repeat(101)}`, lister), 400, { field: 'search' });
  });

  it('filters by createdAfter and createdBefore', async () => {
    const all = (query: string) => listCampaigns(`size=100&${query}`, lister).then(ids);
    expect(await all('createdAfter=2000-01-01')).toEqual(newestFirst());
    expect(await all('createdBefore=2000-01-01T00:00:00Z')).toEqual([]);
    expect(await all('createdAfter=2999-01-01T00:00:00Z')).toEqual([]);

    const pivot = made[11]!.createdAt;
    const at = (c: Campaign) => Date.parse(c.createdAt);
    const older = made.filter((c) => at(c) < Date.parse(pivot)).map((c) => c.id);
    const newer = made.filter((c) => at(c) > Date.parse(pivot)).map((c) => c.id);
    expect(older.length).toBeGreaterThan(0);
    expect(newer.length).toBeGreaterThan(0);
    // createdAfter is inclusive, and createdAt is shown to the millisecond.
    expect(await all(`createdAfter=${encodeURIComponent(pivot)}`)).toEqual(
      made
        .filter((c) => at(c) >= Date.parse(pivot))
        .map((c) => c.id)
        .reverse(),
    );
    const before = await all(`createdBefore=${encodeURIComponent(pivot)}`);
    for (const id of older) expect(before).toContain(id);
    for (const id of newer) expect(before).not.toContain(id);
  });

  it('refuses a malformed createdAfter or createdBefore', async () => {
    for (const value of ['yesterday', '2025-13-01', '2025-04-31', '01/02/2025']) {
      expectError(await listCampaigns(`createdAfter=${encodeURIComponent(value)}`, lister), 400, {
        field: 'createdAfter',
      });
      expectError(await listCampaigns(`createdBefore=${encodeURIComponent(value)}`, lister), 400, {
        field: 'createdBefore',
      });
    }
  });

  it("never shows another organization's campaigns", async () => {
    const empty = await svc.createOrganization('No Campaigns');
    expect((await listCampaigns('', empty)).json()).toMatchObject({
      content: [],
      totalElements: 0,
      totalPages: 0,
      first: true,
      last: true,
    });
    const theirs = await newCampaign({ name: 'Black Friday' }, rival);
    expect(ids(await listCampaigns('size=100&search=black', lister))).toEqual([made[1]!.id, made[0]!.id]);
    expect(ids(await listCampaigns('size=100', lister))).not.toContain(theirs.id);
    expect(ids(await listCampaigns('size=100&search=black', rival))).toContain(theirs.id);
  });
});

describe('statistics routes', () => {
  it('answer statistics for an existing campaign, and empty install statistics for a new one', async () => {
    const c = await newCampaign();
    const stats = await svc.service('GET', `/campaigns/${c.id}/stats`, acme.apiKey);
    expect(stats.statusCode).toBe(200);
    expect(stats.json()).toMatchObject({ campaign: { id: c.id }, totalClicks: 0 });
    const installs = await svc.service('GET', `/campaigns/${c.id}/app-install-stats`, acme.apiKey);
    expect(installs.statusCode).toBe(200);
    expect(installs.json()).toMatchObject({
      appName: c.alias,
      platform: 'All',
      totalInstalls: 0,
      totalClicks: 0,
      conversionRate: 0,
    });
  });

  it("answer 404 for another organization's campaign and an unknown id", async () => {
    const theirs = await newCampaign({}, rival);
    for (const route of ['stats', 'app-install-stats']) {
      expectError(await svc.service('GET', `/campaigns/${theirs.id}/${route}`, acme.apiKey), 404);
      expectError(await svc.service('GET', `/campaigns/987654321/${route}`, acme.apiKey), 404);
    }
  });
});
