// Service API short URLs (/api/v1/service/urls) as an API user sees them: the record, every limit
// at its boundary, the shared alias namespace, linked apps and custom domains, update, delete, the
// paged list with its filters, the QR code and the (pending) statistics routes.
import { beforeAll, describe, expect, it } from 'vitest';
import { serviceForFile } from './support/service.js';
import { expectError, ISO_UTC, type HttpAnswer } from './support/error-body.js';

const BASE = 'https://sgnp.example';

/** The organization most tests act as (FREE). */
let acme: Org;
/** A second organization, to check that nothing crosses the tenant line. */
let rival: Org;

interface Org {
  id: number;
  apiKey: string;
}

type Res = HttpAnswer;

type ShortUrlJson = Record<string, unknown> & { id: number; shortUrl: string; shortCode: string };

const svc = serviceForFile({ PUBLIC_BASE_URL: BASE });

beforeAll(async () => {
  acme = await svc.createOrganization('Acme', 'FREE');
  rival = await svc.createOrganization('Rival', 'FREE');
});

// ---------------------------------------------------------------------------------------------
// Helpers

const SPEC_FIELDS = [
  'id',
  'shortUrl',
  'originalUrl',
  'title',
  'clickCount',
  'createdAt',
  'expiresAt',
  'showAdPage',
  'ogTitle',
  'ogDescription',
  'ogImageUrl',
  'iosAppId',
  'androidAppId',
  'utmSource',
  'utmMedium',
  'utmTerm',
  'utmContent',
  'customDomainName',
  'iosDeepLinkPath',
  'androidDeepLinkPath',
  'mobileTargetUrl',
  'goalType',
];

const OPTIONAL_FIELDS = [
  'title',
  'expiresAt',
  'ogTitle',
  'ogDescription',
  'ogImageUrl',
  'iosAppId',
  'androidAppId',
  'utmSource',
  'utmMedium',
  'utmTerm',
  'utmContent',
  'customDomainName',
  'iosDeepLinkPath',
  'androidDeepLinkPath',
  'mobileTargetUrl',
  'goalType',
];

const PAGE_KEYS = ['content', 'first', 'last', 'page', 'size', 'totalElements', 'totalPages'];

const createUrl = (body: unknown, org: Org = acme): Promise<Res> => svc.service('POST', '/urls', org.apiKey, body);

/** Creates a short URL and returns its record, failing the test with the answer when it is not 201. */
async function newUrl(body: Record<string, unknown> = {}, org: Org = acme): Promise<ShortUrlJson> {
  const res = await createUrl({ url: 'https://example.com/landing', ...body }, org);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const getUrl = (id: number, org: Org = acme) => svc.service('GET', `/urls/${id}`, org.apiKey);
const putUrl = (id: number, body: unknown, org: Org = acme) => svc.service('PUT', `/urls/${id}`, org.apiKey, body);
const deleteUrl = (id: number, org: Org = acme) => svc.service('DELETE', `/urls/${id}`, org.apiKey);
const listUrls = (query: string, org: Org = acme) => svc.service('GET', `/urls${query ? `?${query}` : ''}`, org.apiKey);

async function expectCreateRefused(body: Record<string, unknown>, field: string, org: Org = acme) {
  expectError(await createUrl({ url: 'https://example.com/x', ...body }, org), 400, { field });
}

let aliasCounter = 0;
/** An alias no other test uses (aliases are unique per domain across organizations). */
const uniqueAlias = (prefix: string) => `${prefix}-${process.pid}-${++aliasCounter}`;

async function newApp(org: Org, platform: 'IOS' | 'ANDROID', appName = `${platform} app`) {
  const res = await svc.service('POST', '/mobile-apps', org.apiKey, {
    platform,
    appName,
    bundleId: platform === 'IOS' ? 'com.example.ios' : 'com.example.android',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; path: string };
}

async function newDomain(org: Org, domainName: string, status?: string) {
  const res = await svc.admin('POST', `/organizations/${org.id}/custom-domains`, { domainName });
  expect(res.statusCode, res.body).toBe(201);
  const domain = res.json() as { id: number; domainName: string };
  if (status) {
    const set = await svc.admin('PUT', `/custom-domains/${domain.id}/status`, { status });
    expect(set.statusCode, set.body).toBe(200);
  }
  return domain;
}

/** A fresh organization, for tests that need to know every link it has. */
async function freshOrg(name: string, plan = 'FREE'): Promise<Org> {
  return svc.createOrganization(name, plan);
}

const urlOfLength = (n: number) => {
  const prefix = 'https://example.com/';
  return prefix + 'a'.repeat(n - prefix.length);
};

// ---------------------------------------------------------------------------------------------

describe('create', () => {
  it('answers 201 with the full record: every documented field present, unset optionals null, clickCount 0', async () => {
    const res = await createUrl({ url: 'https://example.com/spring?x=1' });
    expect(res.statusCode, res.body).toBe(201);
    const u = res.json();
    for (const field of SPEC_FIELDS) expect(u, field).toHaveProperty(field);
    for (const field of OPTIONAL_FIELDS) expect(u[field], field).toBeNull();
    expect(typeof u.id).toBe('number');
    expect(u.originalUrl).toBe('https://example.com/spring?x=1');
    expect(u.clickCount).toBe(0);
    expect(u.showAdPage).toBe(false);
    expect(u.createdAt).toMatch(ISO_UTC);
    expect(u.shortCode).toMatch(/^[0-9A-Za-z]{7}$/);
    expect(u.shortUrl).toBe(`${BASE}/${u.shortCode}`);
  });

  it('reads back the same record it created', async () => {
    const created = await newUrl({ title: 'Read me', goalType: 'signup', showAdPage: true });
    const read = await getUrl(created.id);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(created);
  });

  it('generates 7-character base62 codes, unique over 200 creates', async () => {
    const bulk = await freshOrg('Bulk');
    const codes = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const u = await newUrl({ url: `https://example.com/bulk/${i}` }, bulk);
      expect(u.shortCode).toMatch(/^[0-9A-Za-z]{7}$/);
      expect(u.shortUrl).toBe(`${BASE}/${u.shortCode}`);
      codes.add(u.shortCode);
    }
    expect(codes.size).toBe(200);
  });

  it('uses customAlias as the code and keeps showAdPage, title and goalType', async () => {
    const alias = uniqueAlias('Promo_2025');
    const u = await newUrl({ customAlias: alias, title: 'Spring promo', showAdPage: true, goalType: 'purchase' });
    expect(u.shortCode).toBe(alias);
    expect(u.shortUrl).toBe(`${BASE}/${alias}`);
    expect(u).toMatchObject({ title: 'Spring promo', showAdPage: true, goalType: 'purchase' });
  });
});

describe('create: limits', () => {
  it('requires url', async () => {
    expectError(await createUrl({}), 400, { field: 'url' });
    expectError(await createUrl({ url: '' }), 400, { field: 'url' });
    expectError(await createUrl({ url: null }), 400, { field: 'url' });
  });

  it('accepts https:// only', async () => {
    for (const url of [
      'http://example.com/a',
      'ftp://example.com/a',
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'example.com/a',
      '//example.com/a',
    ]) {
      expectError(await createUrl({ url }), 400, { field: 'url' });
    }
    expect((await newUrl({ url: 'HTTPS://Example.COM/Caps' })).originalUrl).toBe('HTTPS://Example.COM/Caps');
  });

  it('takes a url of 1000 characters and refuses 1001', async () => {
    const u = await newUrl({ url: urlOfLength(1000) });
    expect(u.originalUrl).toHaveLength(1000);
    expectError(await createUrl({ url: urlOfLength(1001) }), 400, { field: 'url' });
  });

  it('refuses spaces, credentials and a host without a dot', async () => {
    for (const url of [
      'https://example.com/a b',
      'https://user:pw@example.com/',
      'https://user@example.com/',
      'https://intranet/',
      'https://intranet',
      'https://exa mple.com/',
    ]) {
      expectError(await createUrl({ url }), 400, { field: 'url' });
    }
  });

  it('takes a title of 200 characters and refuses 201', async () => {
    expect((await newUrl({ title: 't'.repeat(200) })).title).toBe('t'.repeat(200));
    await expectCreateRefused({ title: 't'.repeat(201) }, 'title');
  });

  it('takes a customAlias of 50 characters and refuses 51', async () => {
    const fifty = `${uniqueAlias('a')}-`.padEnd(50, 'x');
    expect(fifty).toHaveLength(50);
    expect((await newUrl({ customAlias: fifty })).shortCode).toBe(fifty);
    await expectCreateRefused({ customAlias: 'b'.repeat(51) }, 'customAlias');
  });

  it('refuses a customAlias with characters other than letters, digits, - and _', async () => {
    for (const customAlias of ['a.b', 'a/b', 'a b', 'café', '한글', 'a?b', 'a#b', 'a%20b', '']) {
      await expectCreateRefused({ customAlias }, 'customAlias');
    }
    const ok = uniqueAlias('Mixed_Case-09');
    expect((await newUrl({ customAlias: ok })).shortCode).toBe(ok);
  });

  it('refuses reserved aliases, whatever their case', async () => {
    for (const customAlias of ['api', 'docs', 'healthz', 'sso', '.well-known', 'console', 'API', 'Docs']) {
      await expectCreateRefused({ customAlias }, 'customAlias');
    }
  });

  it('takes a goalType of 50 characters and refuses 51', async () => {
    expect((await newUrl({ goalType: 'g'.repeat(50) })).goalType).toBe('g'.repeat(50));
    await expectCreateRefused({ goalType: 'g'.repeat(51) }, 'goalType');
  });

  it("reads expirationDate as YYYY-MM-DD HH:mm:ss in UTC, or YYYY-MM-DD as the end of that day in the organization's time zone (Asia/Seoul)", async () => {
    expect((await newUrl({ expirationDate: '2035-05-06 07:08:09' })).expiresAt).toBe('2035-05-06T07:08:09.000Z');
    expect((await newUrl({ expirationDate: '2035-05-06' })).expiresAt).toBe('2035-05-06T14:59:59.999Z');
    expect((await newUrl({ expirationDate: '2036-02-29 23:59:59' })).expiresAt).toBe('2036-02-29T23:59:59.000Z');
    expect((await newUrl({ expirationDate: null })).expiresAt).toBeNull();
  });

  it('refuses a malformed expirationDate', async () => {
    for (const expirationDate of [
      '2030-13-01',
      '2030-02-30',
      '2031-02-29',
      '01/02/2030',
      '2030-01-01T10:00',
      '2030-01-01 24:00:00',
      '2030-01-01 10:60:00',
      'tomorrow',
      '',
      20300101,
    ]) {
      await expectCreateRefused({ expirationDate }, 'expirationDate');
    }
  });

  it('refuses an expirationDate in the past', async () => {
    await expectCreateRefused({ expirationDate: '2020-01-01' }, 'expirationDate');
    await expectCreateRefused({ expirationDate: '2020-01-01 12:00:00' }, 'expirationDate');
  });

  it('refuses showAdPage and app ids of the wrong type', async () => {
    await expectCreateRefused({ showAdPage: 'yes' }, 'showAdPage');
    await expectCreateRefused({ iosAppId: 'one' }, 'iosAppId');
    await expectCreateRefused({ androidAppId: 1.5 }, 'androidAppId');
  });
});

describe('customAlias: one namespace per domain', () => {
  it('answers 409 ALIAS_TAKEN for a duplicate alias', async () => {
    const alias = uniqueAlias('dup');
    await newUrl({ customAlias: alias });
    expectError(await createUrl({ url: 'https://example.com/other', customAlias: alias }), 409, {
      field: 'customAlias',
      code: 'ALIAS_TAKEN',
    });
  });

  it('answers 409 when a campaign already uses the alias', async () => {
    const alias = uniqueAlias('camp');
    const campaign = await svc.service('POST', '/campaigns', acme.apiKey, {
      name: 'Clash',
      alias,
      originalUrl: 'https://example.com/c',
    });
    expect(campaign.statusCode, campaign.body).toBe(201);
    expectError(await createUrl({ url: 'https://example.com/u', customAlias: alias }), 409, {
      field: 'customAlias',
      code: 'ALIAS_TAKEN',
    });
  });

  it('answers 409 when another organization holds the alias on the platform domain', async () => {
    const alias = uniqueAlias('shared');
    await newUrl({ customAlias: alias }, acme);
    expectError(await createUrl({ url: 'https://example.com/r', customAlias: alias }, rival), 409, {
      field: 'customAlias',
      code: 'ALIAS_TAKEN',
    });
  });

  it('frees the alias when its link is deleted', async () => {
    const alias = uniqueAlias('freed');
    const first = await newUrl({ customAlias: alias }, acme);
    expect((await deleteUrl(first.id)).statusCode).toBe(204);
    const again = await newUrl({ customAlias: alias, url: 'https://example.com/second' }, rival);
    expect(again.shortCode).toBe(alias);
    expect(again.id).not.toBe(first.id);
  });

  it('leaves nothing behind when a create is refused for its alias', async () => {
    const org = await freshOrg('Clashing');
    const alias = uniqueAlias('taken');
    await newUrl({ customAlias: alias }, acme);
    expect((await createUrl({ url: 'https://example.com/x', customAlias: alias }, org)).statusCode).toBe(409);
    expect((await listUrls('', org)).json().totalElements).toBe(0);
  });
});

describe('linked apps', () => {
  let ios: { id: number };
  let android: { id: number };
  let rivalIos: { id: number };

  beforeAll(async () => {
    ios = await newApp(acme, 'IOS');
    android = await newApp(acme, 'ANDROID');
    rivalIos = await newApp(rival, 'IOS');
  });

  it("links the organization's apps of the right platform", async () => {
    const u = await newUrl({ iosAppId: ios.id, androidAppId: android.id });
    expect(u).toMatchObject({ iosAppId: ios.id, androidAppId: android.id });
    expect((await getUrl(u.id)).json()).toMatchObject({ iosAppId: ios.id, androidAppId: android.id });
  });

  it('refuses an app of the other platform', async () => {
    expectError(await createUrl({ url: 'https://example.com/a', iosAppId: android.id }), 400, {
      field: 'iosAppId',
      code: 'APP_PLATFORM_MISMATCH',
    });
    expectError(await createUrl({ url: 'https://example.com/a', androidAppId: ios.id }), 400, {
      field: 'androidAppId',
      code: 'APP_PLATFORM_MISMATCH',
    });
  });

  it("refuses another organization's app and an unknown id", async () => {
    expectError(await createUrl({ url: 'https://example.com/a', iosAppId: rivalIos.id }), 400, {
      field: 'iosAppId',
      code: 'APP_NOT_FOUND',
    });
    expectError(await createUrl({ url: 'https://example.com/a', androidAppId: 987654321 }), 400, {
      field: 'androidAppId',
      code: 'APP_NOT_FOUND',
    });
    expectError(await createUrl({ url: 'https://example.com/a', iosAppId: 0 }), 400, { field: 'iosAppId' });
  });

  it('checks apps on update too, and null unlinks', async () => {
    const u = await newUrl({ iosAppId: ios.id });
    expectError(await putUrl(u.id, { iosAppId: android.id }), 400, { field: 'iosAppId' });
    expectError(await putUrl(u.id, { iosAppId: rivalIos.id }), 400, { field: 'iosAppId' });
    expect((await getUrl(u.id)).json().iosAppId).toBe(ios.id);
    const linked = await putUrl(u.id, { androidAppId: android.id });
    expect(linked.json()).toMatchObject({ iosAppId: ios.id, androidAppId: android.id });
    const unlinked = await putUrl(u.id, { iosAppId: null });
    expect(unlinked.statusCode).toBe(200);
    expect(unlinked.json()).toMatchObject({ iosAppId: null, androidAppId: android.id });
  });
});

describe('extension fields', () => {
  const extensions = {
    ogTitle: 'Share title',
    ogDescription: 'Share description',
    ogImageUrl: 'https://cdn.example.com/og.png',
    utmSource: 'newsletter',
    utmMedium: 'email',
    utmCampaign: 'spring',
    utmTerm: 'shoes',
    utmContent: 'hero-banner',
    iosDeepLinkPath: 'product/42',
    androidDeepLinkPath: '/product/42?ref=sms',
    mobileTargetUrl: 'https://m.example.com/product/42',
  };

  it('stores them on create and returns them on read', async () => {
    const u = await newUrl(extensions);
    expect(u).toMatchObject(extensions);
    expect((await getUrl(u.id)).json()).toMatchObject(extensions);
  });

  it('updates them, keeps the ones left out, and clears with null or an empty string', async () => {
    const u = await newUrl(extensions);
    const res = await putUrl(u.id, { ogTitle: 'New title', utmSource: 'sms', mobileTargetUrl: null, utmTerm: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      ...extensions,
      ogTitle: 'New title',
      utmSource: 'sms',
      mobileTargetUrl: null,
      utmTerm: null,
    });
    expect((await getUrl(u.id)).json()).toEqual(res.json());
  });

  it('validates them', async () => {
    await expectCreateRefused({ ogImageUrl: 'http://cdn.example.com/og.png' }, 'ogImageUrl');
    await expectCreateRefused({ mobileTargetUrl: 'javascript:alert(1)' }, 'mobileTargetUrl');
    await expectCreateRefused({ iosDeepLinkPath: 'myapp://product/42' }, 'iosDeepLinkPath');
    await expectCreateRefused({ androidDeepLinkPath: 'product 42' }, 'androidDeepLinkPath');
    await expectCreateRefused({ ogTitle: 'o'.repeat(201) }, 'ogTitle');
    await expectCreateRefused({ utmSource: 'u'.repeat(101) }, 'utmSource');
    const u = await newUrl();
    expectError(await putUrl(u.id, { ogImageUrl: 'ftp://cdn.example.com/og.png' }), 400, { field: 'ogImageUrl' });
  });
});

describe('custom domains', () => {
  let verified: { id: number; domainName: string };
  let active: { id: number; domainName: string };
  let pending: { id: number; domainName: string };
  let rivalVerified: { id: number; domainName: string };

  beforeAll(async () => {
    verified = await newDomain(acme, 'go.acme-shop.com', 'VERIFIED');
    active = await newDomain(acme, 'links.acme-shop.com', 'ACTIVE');
    pending = await newDomain(acme, 'pending.acme-shop.com');
    rivalVerified = await newDomain(rival, 'go.rival-shop.com', 'VERIFIED');
  });

  it('puts a link on a VERIFIED or ACTIVE domain of the organization', async () => {
    const u = await newUrl({ customDomainName: verified.domainName });
    expect(u.customDomainName).toBe(verified.domainName);
    expect(u.shortUrl).toBe(`https://${verified.domainName}/${u.shortCode}`);
    const v = await newUrl({ customDomainName: active.domainName.toUpperCase() });
    expect(v.customDomainName).toBe(active.domainName);
    expect(v.shortUrl).toBe(`https://${active.domainName}/${v.shortCode}`);
    expect((await getUrl(v.id)).json().shortUrl).toBe(v.shortUrl);
  });

  it('refuses a PENDING domain, a FAILED one, and an unknown one', async () => {
    expectError(await createUrl({ url: 'https://example.com/a', customDomainName: pending.domainName }), 400, {
      field: 'customDomainName',
    });
    const failed = await newDomain(acme, 'failed.acme-shop.com', 'FAILED');
    expectError(await createUrl({ url: 'https://example.com/a', customDomainName: failed.domainName }), 400, {
      field: 'customDomainName',
    });
    expectError(await createUrl({ url: 'https://example.com/a', customDomainName: 'nobody.example.org' }), 400, {
      field: 'customDomainName',
    });
    expectError(await createUrl({ url: 'https://example.com/a', customDomainName: 'not a domain' }), 400, {
      field: 'customDomainName',
    });
  });

  it("refuses another organization's verified domain", async () => {
    expectError(await createUrl({ url: 'https://example.com/a', customDomainName: rivalVerified.domainName }), 400, {
      field: 'customDomainName',
    });
    expect((await newUrl({ customDomainName: rivalVerified.domainName }, rival)).shortUrl).toContain(
      rivalVerified.domainName,
    );
  });

  it('lets the same code live on different domains, once per domain', async () => {
    const alias = uniqueAlias('everywhere');
    const onPlatform = await newUrl({ customAlias: alias });
    const onVerified = await newUrl({ customAlias: alias, customDomainName: verified.domainName });
    const onActive = await newUrl({ customAlias: alias, customDomainName: active.domainName });
    const onRival = await newUrl({ customAlias: alias, customDomainName: rivalVerified.domainName }, rival);
    expect(new Set([onPlatform.shortUrl, onVerified.shortUrl, onActive.shortUrl, onRival.shortUrl]).size).toBe(4);
    expect(onVerified.shortUrl).toBe(`https://${verified.domainName}/${alias}`);
    expectError(
      await createUrl({ url: 'https://example.com/a', customAlias: alias, customDomainName: verified.domainName }),
      409,
      { code: 'ALIAS_TAKEN' },
    );
  });
});

describe('update', () => {
  it('keeps the fields left out', async () => {
    const u = await newUrl({
      title: 'Keep',
      goalType: 'signup',
      showAdPage: true,
      expirationDate: '2035-01-02 03:04:05',
      utmSource: 'keep',
    });
    const res = await putUrl(u.id, { originalUrl: 'https://example.com/moved' });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json();
    expect(updated).toEqual({ ...u, originalUrl: 'https://example.com/moved', updatedAt: updated.updatedAt });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(u.updatedAt as string));
    expect((await getUrl(u.id)).json()).toEqual(updated);
  });

  it('changes nothing with an empty body', async () => {
    const u = await newUrl({ title: 'Still' });
    const res = await putUrl(u.id, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(u);
  });

  it('sets expirationDate in both forms and clears it with null', async () => {
    const u = await newUrl();
    expect((await putUrl(u.id, { expirationDate: '2035-07-08 09:10:11' })).json().expiresAt).toBe(
      '2035-07-08T09:10:11.000Z',
    );
    expect((await putUrl(u.id, { expirationDate: '2035-07-09' })).json().expiresAt).toBe('2035-07-09T14:59:59.999Z');
    const cleared = await putUrl(u.id, { expirationDate: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().expiresAt).toBeNull();
    expect((await getUrl(u.id)).json().expiresAt).toBeNull();
  });

  it('validates expirationDate like create', async () => {
    const u = await newUrl({ expirationDate: '2035-01-01' });
    for (const expirationDate of ['2030-02-30', '01/02/2030', '2030-01-01T10:00', '2020-01-01']) {
      expectError(await putUrl(u.id, { expirationDate }), 400, { field: 'expirationDate' });
    }
    expect((await getUrl(u.id)).json().expiresAt).toBe('2035-01-01T14:59:59.999Z');
  });

  it('validates originalUrl like create', async () => {
    const u = await newUrl({ url: 'https://example.com/original' });
    for (const originalUrl of [
      'http://example.com/',
      'javascript:alert(1)',
      urlOfLength(1001),
      'https://intranet/',
      'https://u:p@example.com/',
      '',
      null,
    ]) {
      expectError(await putUrl(u.id, { originalUrl }), 400, { field: 'originalUrl' });
    }
    expect((await putUrl(u.id, { originalUrl: urlOfLength(1000) })).json().originalUrl).toBe(urlOfLength(1000));
  });

  it('changes showAdPage and goalType; null clears goalType', async () => {
    const u = await newUrl({ goalType: 'signup' });
    expect((await putUrl(u.id, { showAdPage: true })).json()).toMatchObject({ showAdPage: true, goalType: 'signup' });
    expect((await putUrl(u.id, { goalType: 'g'.repeat(50) })).json()).toMatchObject({
      showAdPage: true,
      goalType: 'g'.repeat(50),
    });
    expectError(await putUrl(u.id, { goalType: 'g'.repeat(51) }), 400, { field: 'goalType' });
    expectError(await putUrl(u.id, { showAdPage: 'no' }), 400, { field: 'showAdPage' });
    expect((await putUrl(u.id, { showAdPage: false, goalType: null })).json()).toMatchObject({
      showAdPage: false,
      goalType: null,
    });
  });

  it("answers 404 for an unknown id and for another organization's link, which stays unchanged", async () => {
    expectError(await putUrl(987654321, { title: 'x' }), 404, { code: 'SHORT_URL_NOT_FOUND' });
    const theirs = await newUrl({ title: 'Theirs' }, rival);
    expectError(await putUrl(theirs.id, { title: 'Mine now', originalUrl: 'https://evil.example.com/' }), 404);
    expect((await getUrl(theirs.id, rival)).json()).toEqual(theirs);
  });

  it('answers 400 for an id that is not a positive integer', async () => {
    for (const id of ['abc', '0', '-1', '1.5']) {
      expectError(await svc.service('PUT', `/urls/${id}`, acme.apiKey, { title: 'x' }), 400, { field: 'id' });
      expectError(await svc.service('GET', `/urls/${id}`, acme.apiKey), 400, { field: 'id' });
    }
  });
});

describe('read and delete', () => {
  it("answers 404 on read for an unknown id and for another organization's link", async () => {
    expectError(await getUrl(987654321), 404, { code: 'SHORT_URL_NOT_FOUND' });
    const theirs = await newUrl({}, rival);
    expectError(await getUrl(theirs.id, acme), 404, { code: 'SHORT_URL_NOT_FOUND' });
  });

  it('deletes with 204 and no body; then the link is gone and a second delete is 404', async () => {
    const u = await newUrl();
    const res = await deleteUrl(u.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expectError(await getUrl(u.id), 404, { code: 'SHORT_URL_NOT_FOUND' });
    expectError(await deleteUrl(u.id), 404, { code: 'SHORT_URL_NOT_FOUND' });
    expectError(await putUrl(u.id, { title: 'x' }), 404);
    const list = (await listUrls('size=100')).json();
    expect(list.content.map((x: ShortUrlJson) => x.id)).not.toContain(u.id);
  });

  it("answers 404 for another organization's link and leaves it in place", async () => {
    const theirs = await newUrl({}, rival);
    expectError(await deleteUrl(theirs.id, acme), 404, { code: 'SHORT_URL_NOT_FOUND' });
    expect((await getUrl(theirs.id, rival)).json()).toEqual(theirs);
  });
});

describe('list', () => {
  let lister: Org;
  /** Records of `lister`, in creation order. */
  const made: ShortUrlJson[] = [];

  beforeAll(async () => {
    lister = await freshOrg('Lister');
    const bodies: Record<string, unknown>[] = [
      { url: 'https://shop.example.com/Sale/Shoes', title: 'shoes' },
      { url: 'https://shop.example.com/100%25off', showAdPage: true },
      { url: 'https://shop.example.com/a_b' },
      { url: 'https://shop.example.com/aXb' },
      { url: 'https://blog.example.org/post', showAdPage: true },
      { url: 'https://blog.example.org/other', customAlias: uniqueAlias('ListAlias') },
    ];
    for (let i = 0; bodies.length < 25; i++) bodies.push({ url: `https://filler.example.net/item/${i}` });
    for (const body of bodies) made.push(await newUrl(body, lister));
  });

  const ids = (res: Res) => res.json().content.map((u: ShortUrlJson) => u.id);
  const newestFirst = () => [...made].reverse().map((u) => u.id);

  it('answers the paged wrapper with exactly its keys, page 0 and size 20 by default', async () => {
    const res = await listUrls('', lister);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(PAGE_KEYS);
    expect(body).toMatchObject({ page: 0, size: 20, totalElements: 25, totalPages: 2, first: true, last: false });
    expect(body.content).toHaveLength(20);
    for (const field of SPEC_FIELDS) expect(body.content[0]).toHaveProperty(field);
  });

  it('lists newest first, with a stable order across pages', async () => {
    expect(ids(await listUrls('size=100', lister))).toEqual(newestFirst());
    const seen: number[] = [];
    for (let page = 0; page < 4; page++) {
      const body = (await listUrls(`page=${page}&size=7`, lister)).json();
      expect(body).toMatchObject({
        page,
        size: 7,
        totalElements: 25,
        totalPages: 4,
        first: page === 0,
        last: page === 3,
      });
      expect(body.content).toHaveLength(page === 3 ? 4 : 7);
      seen.push(...body.content.map((u: ShortUrlJson) => u.id));
    }
    expect(seen).toEqual(newestFirst());
  });

  it('answers an empty last page beyond the end', async () => {
    const body = (await listUrls('page=9&size=10', lister)).json();
    expect(body).toMatchObject({
      content: [],
      page: 9,
      size: 10,
      totalElements: 25,
      totalPages: 3,
      first: false,
      last: true,
    });
  });

  it('takes size 1 and 100, and page 0', async () => {
    const one = (await listUrls('page=0&size=1', lister)).json();
    expect(one).toMatchObject({ size: 1, totalPages: 25, first: true, last: false });
    expect(one.content.map((u: ShortUrlJson) => u.id)).toEqual([made.at(-1)!.id]);
    const last = (await listUrls('page=24&size=1', lister)).json();
    expect(last).toMatchObject({ first: false, last: true });
    expect(last.content.map((u: ShortUrlJson) => u.id)).toEqual([made[0]!.id]);
    expect((await listUrls('size=100', lister)).json()).toMatchObject({
      size: 100,
      totalPages: 1,
      first: true,
      last: true,
    });
  });

  it('refuses size and page out of range or not integers', async () => {
    for (const [query, field] of [
      ['size=0', 'size'],
      ['size=101', 'size'],
      ['size=abc', 'size'],
      ['size=1.5', 'size'],
      ['page=-1', 'page'],
      ['page=abc', 'page'],
    ]) {
      expectError(await listUrls(query!, lister), 400, { field: field! });
    }
  });

  it('filters by keyword over the original URL, case-insensitively', async () => {
    const res = await listUrls('keyword=SALE%2Fshoes', lister);
    expect(ids(res)).toEqual([made[0]!.id]);
    expect(ids(await listUrls('keyword=blog.example', lister))).toEqual([made[5]!.id, made[4]!.id]);
    expect(res.json()).toMatchObject({ totalElements: 1, totalPages: 1, first: true, last: true });
    expect((await listUrls('keyword=nothing-like-this', lister)).json()).toMatchObject({
      content: [],
      totalElements: 0,
      totalPages: 0,
      first: true,
      last: true,
    });
  });

  it('filters by keyword over the short code, case-insensitively', async () => {
    const target = made[7]!;
    expect(ids(await listUrls(`keyword=${encodeURIComponent(target.shortCode.toLowerCase())}`, lister))).toEqual([
      target.id,
    ]);
    expect(ids(await listUrls(`keyword=${encodeURIComponent(target.shortCode.toUpperCase())}`, lister))).toEqual([
      target.id,
    ]);
    const alias = made[5]!.shortCode;
    expect(ids(await listUrls(`keyword=${encodeURIComponent(alias.toUpperCase())}`, lister))).toEqual([made[5]!.id]);
  });

  it("treats '%' and '_' in the keyword as literal characters", async () => {
    expect(ids(await listUrls(`keyword=${encodeURIComponent('%')}`, lister))).toEqual([made[1]!.id]);
    // `_` must not match the `X` of .../aXb (nor any other single character).
    expect(ids(await listUrls(`keyword=${encodeURIComponent('a_b')}`, lister))).toEqual([made[2]!.id]);
  });

  it('takes a keyword of 100 characters and refuses 101', async () => {
    expect((await listUrls(`keyword=${'k'.repeat(100)}`, lister)).json().totalElements).toBe(0);
    expectError(await listUrls(`keyword=${'k'.repeat(101)}`, lister), 400, { field: 'keyword' });
  });

  it('filters by showAdPage', async () => {
    expect(ids(await listUrls('showAdPage=true', lister))).toEqual([made[4]!.id, made[1]!.id]);
    expect((await listUrls('showAdPage=false&size=100', lister)).json().totalElements).toBe(23);
    expectError(await listUrls('showAdPage=maybe', lister), 400, { field: 'showAdPage' });
    expectError(await listUrls('showAdPage=1', lister), 400, { field: 'showAdPage' });
  });

  it('filters by createdAfter and createdBefore', async () => {
    const all = (query: string) => listUrls(`size=100&${query}`, lister).then(ids);
    expect(await all('createdAfter=2000-01-01')).toEqual(newestFirst());
    expect(await all('createdBefore=2000-01-01T00:00:00Z')).toEqual([]);
    expect(await all('createdAfter=2999-01-01T00:00:00Z')).toEqual([]);
    expect(await all('createdBefore=2999-01-01')).toEqual(newestFirst());

    // A boundary taken from the middle record: createdAt is shown to the millisecond.
    const pivot = made[12]!.createdAt as string;
    const at = (u: ShortUrlJson) => Date.parse(u.createdAt as string);
    const older = made.filter((u) => at(u) < Date.parse(pivot)).map((u) => u.id);
    const newer = made.filter((u) => at(u) > Date.parse(pivot)).map((u) => u.id);
    expect(older.length).toBeGreaterThan(0);
    expect(newer.length).toBeGreaterThan(0);

    // createdAfter is inclusive: everything shown at or after the pivot.
    const after = await all(`createdAfter=${encodeURIComponent(pivot)}`);
    expect(after).toEqual(
      made
        .filter((u) => at(u) >= Date.parse(pivot))
        .map((u) => u.id)
        .reverse(),
    );

    const before = await all(`createdBefore=${encodeURIComponent(pivot)}`);
    for (const id of older) expect(before).toContain(id);
    for (const id of newer) expect(before).not.toContain(id);

    // Both together: a window from an older record to the pivot.
    const from = made[3]!.createdAt as string;
    const both = await all(`createdAfter=${encodeURIComponent(from)}&createdBefore=${encodeURIComponent(pivot)}`);
    expect(both).toContain(made[3]!.id);
    for (const u of made) {
      if (at(u) < Date.parse(from) || at(u) > Date.parse(pivot)) expect(both).not.toContain(u.id);
      if (at(u) >= Date.parse(from) && at(u) < Date.parse(pivot)) expect(both).toContain(u.id);
    }
  });

  it('refuses a malformed createdAfter or createdBefore', async () => {
    for (const value of ['yesterday', '2025-13-01', '2025-02-30', '2025-01-01T25:00:00Z', '01/02/2025']) {
      expectError(await listUrls(`createdAfter=${encodeURIComponent(value)}`, lister), 400, { field: 'createdAfter' });
      expectError(await listUrls(`createdBefore=${encodeURIComponent(value)}`, lister), 400, {
        field: 'createdBefore',
      });
    }
  });

  it("never shows another organization's links", async () => {
    const empty = await freshOrg('Empty');
    expect((await listUrls('', empty)).json()).toMatchObject({
      content: [],
      totalElements: 0,
      totalPages: 0,
      first: true,
      last: true,
    });
    const theirs = await newUrl({ url: 'https://shop.example.com/Sale/Shoes/rival' }, rival);
    // The keyword also matches short codes; a slash never stands in a generated one, so only the
    // destinations can match (a random 7-character code can contain "sale").
    const mine = (await listUrls(`size=100&keyword=${encodeURIComponent('sale/shoes')}`, lister)).json();
    expect(mine.content.map((u: ShortUrlJson) => u.id)).toEqual([made[0]!.id]);
    expect(ids(await listUrls('size=100', lister))).not.toContain(theirs.id);
    expect(ids(await listUrls('size=100&keyword=rival', rival))).toContain(theirs.id);
  });
});

describe('QR code', () => {
  let pro: Org;
  let proUrl: ShortUrlJson;

  beforeAll(async () => {
    pro = await freshOrg('Pro Shop', 'PRO');
    proUrl = await newUrl({ url: 'https://example.com/qr' }, pro);
  });

  const qr = (id: number, org: Org, query = '') => svc.service('GET', `/urls/${id}/qr${query}`, org.apiKey);

  /** Width and height from the IHDR chunk, which follows the 8-byte signature and its length and type. */
  const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
  const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  it('answers 403 PLAN_UPGRADE_REQUIRED below the PRO plan', async () => {
    const u = await newUrl();
    expectError(await qr(u.id, acme), 403, { code: 'PLAN_UPGRADE_REQUIRED' });
  });

  it('answers qrCode as Base64 of a PNG and the shortUrl of the record on PRO', async () => {
    const res = await qr(proUrl.id, pro);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.shortUrl).toBe(proUrl.shortUrl);
    expect(body.qrCode).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    const png = Buffer.from(body.qrCode, 'base64');
    expect(png.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect(pngSize(png)).toEqual({ width: 300, height: 300 });
  });

  it('draws the PNG at the requested size', async () => {
    for (const size of [64, 128, 2048]) {
      const res = await qr(proUrl.id, pro, `?size=${size}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(pngSize(Buffer.from(res.json().qrCode, 'base64'))).toEqual({ width: size, height: size });
    }
  });

  it('answers an SVG document with format=svg', async () => {
    const res = await qr(proUrl.id, pro, '?format=svg');
    expect(res.statusCode, res.body).toBe(200);
    const svg = Buffer.from(res.json().qrCode, 'base64').toString('utf8');
    expect(svg.trimStart().startsWith('<svg')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(res.json().shortUrl).toBe(proUrl.shortUrl);
  });

  it('refuses a size out of range and an unknown format', async () => {
    for (const size of ['63', '2049', 'big', '0']) {
      expectError(await qr(proUrl.id, pro, `?size=${size}`), 400, { field: 'size' });
    }
    expectError(await qr(proUrl.id, pro, '?format=gif'), 400, { field: 'format' });
  });

  it("answers 404 for another organization's link and an unknown id", async () => {
    const theirs = await newUrl({}, rival);
    expectError(await qr(theirs.id, pro), 404, { code: 'SHORT_URL_NOT_FOUND' });
    expectError(await qr(987654321, pro), 404, { code: 'SHORT_URL_NOT_FOUND' });
    // A FREE organization asking for another's link learns nothing either: 404, not the plan's 403.
    expectError(await qr(proUrl.id, acme), 404, { code: 'SHORT_URL_NOT_FOUND' });
  });

  it('encodes the custom-domain address of a link on a custom domain', async () => {
    const domain = await newDomain(pro, 'qr.pro-shop.com', 'ACTIVE');
    const u = await newUrl({ customDomainName: domain.domainName }, pro);
    const res = await qr(u.id, pro);
    expect(res.statusCode).toBe(200);
    expect(res.json().shortUrl).toBe(`https://qr.pro-shop.com/${u.shortCode}`);
  });
});

describe('statistics routes', () => {
  it('answer statistics for an existing link, and empty install statistics for a new one', async () => {
    const u = await newUrl();
    const stats = await svc.service('GET', `/urls/${u.id}/stats`, acme.apiKey);
    expect(stats.statusCode).toBe(200);
    expect(stats.json()).toMatchObject({ url: { id: u.id }, chartData: expect.any(Array) });
    const installs = await svc.service('GET', `/urls/${u.id}/app-install-stats`, acme.apiKey);
    expect(installs.statusCode).toBe(200);
    expect(installs.json()).toMatchObject({
      appName: u.shortCode,
      platform: 'All',
      totalInstalls: 0,
      totalClicks: 0,
      conversionRate: 0,
    });
  });

  it("answer 404 for another organization's link", async () => {
    const theirs = await newUrl({}, rival);
    for (const route of ['stats', 'app-install-stats']) {
      expectError(await svc.service('GET', `/urls/${theirs.id}/${route}`, acme.apiKey), 404);
    }
  });
});
