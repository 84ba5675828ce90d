// Service API: mobile apps (/api/v1/service/mobile-apps) as clients see them: the record, the
// generated path and SDK key, field rules per platform, the numbered paged list, update, delete and
// what deleting an app does to the links that point at it.
import { beforeAll, describe, expect, it } from 'vitest';
import { serviceForFile } from './support/service.js';

/** The organization most tests use; list tests make their own so counts are exact. */
let org: { id: number; apiKey: string };

const svc = serviceForFile({ PUBLIC_BASE_URL: 'https://sgnp.example' });

beforeAll(async () => {
  org = await svc.createOrganization('Mobile Apps Org', 'PRO');
});

type Json = Record<string, unknown>;

const SPEC_FIELDS = [
  'id',
  'appName',
  'platform',
  'appIconUrl',
  'bundleId',
  'path',
  'apiKey',
  'scheme',
  'teamId',
  'storeUrl',
];
const EXTENSION_FIELDS = [
  'sha256CertFingerprints',
  'deepLinkTokenTtlSeconds',
  'clipboardMatch',
  'identityVerification',
  'identitySecretIssuedAt',
  'createdAt',
  'updatedAt',
];
const FINGERPRINT = Array.from({ length: 32 }, (_, i) => (i * 7 + 16).toString(16).padStart(2, '0').toUpperCase()).join(
  ':',
);

const ios = (extra: Json = {}) => ({ platform: 'IOS', appName: 'Acme Shop', bundleId: 'com.acme.shop', ...extra });
const android = (extra: Json = {}) => ({
  platform: 'ANDROID',
  appName: 'Acme Shop',
  bundleId: 'com.acme.shop',
  ...extra,
});

async function createApp(body: Json, apiKey = org.apiKey): Promise<Json & { id: number }> {
  const res = await svc.service('POST', '/mobile-apps', apiKey, body);
  if (res.statusCode !== 201) throw new Error(`mobile app not created: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Posts a create body and expects 400 with the error body naming `field`. */
async function expectCreateRefused(body: Json, field: string) {
  const res = await svc.service('POST', '/mobile-apps', org.apiKey, body);
  expect(res.statusCode, `${JSON.stringify(body)} → ${res.body}`).toBe(400);
  const error = res.json();
  expect(error).toMatchObject({ status: 400, error: 'Bad Request' });
  expect(typeof error.timestamp).toBe('string');
  expect(error.message).toContain(`body.${field}`);
}

describe('POST /mobile-apps', () => {
  it('answers 201 with every field of the Mobile app record plus the extensions', async () => {
    const res = await svc.service(
      'POST',
      '/mobile-apps',
      org.apiKey,
      ios({
        teamId: 'ABCDE12345',
        scheme: 'acmeshop://',
        storeUrl: 'https://apps.apple.com/app/id123456789',
        appIconUrl: 'https://cdn.acme.example/icon.png',
      }),
    );
    expect(res.statusCode).toBe(201);
    const app = res.json();
    expect(Object.keys(app).sort()).toEqual([...SPEC_FIELDS, ...EXTENSION_FIELDS].sort());
    expect(app).toMatchObject({
      appName: 'Acme Shop',
      platform: 'IOS',
      appIconUrl: 'https://cdn.acme.example/icon.png',
      bundleId: 'com.acme.shop',
      scheme: 'acmeshop://',
      teamId: 'ABCDE12345',
      storeUrl: 'https://apps.apple.com/app/id123456789',
      sha256CertFingerprints: [],
      deepLinkTokenTtlSeconds: 7200,
      clipboardMatch: false,
    });
    expect(Number.isInteger(app.id)).toBe(true);
    expect(app.path).toMatch(/^acme-shop-[a-z0-9]{6}$/);
    expect(app.apiKey).toMatch(/^spm_[0-9A-Za-z]{32}$/);
    expect(Number.isNaN(Date.parse(app.createdAt))).toBe(false);
  });

  it('returns null for every optional field left out', async () => {
    const app = await createApp(android({ appName: 'Bare App', bundleId: 'com.bare.app' }));
    expect(app).toMatchObject({
      platform: 'ANDROID',
      appIconUrl: null,
      scheme: null,
      teamId: null,
      storeUrl: null,
      sha256CertFingerprints: [],
    });
  });

  it('generates a unique, readable, lowercase path even for many apps of the same name', async () => {
    const paths = new Set<string>();
    for (let i = 0; i < 25; i++) {
      const app = await createApp(ios());
      expect(app.path).toMatch(/^acme-shop-[a-z0-9]{6}$/);
      paths.add(app.path as string);
    }
    expect(paths.size).toBe(25);
  });

  it('derives the path from names that are not plain ASCII words', async () => {
    expect((await createApp(ios({ appName: '에이크미 쇼핑' }))).path).toMatch(/^app-[a-z0-9]{6}$/);
    expect((await createApp(ios({ appName: '  Café   Déjà-Vu!! ' }))).path).toMatch(/^cafe-deja-vu-[a-z0-9]{6}$/);
    expect((await createApp(ios({ appName: '***' }))).path).toMatch(/^app-[a-z0-9]{6}$/);
    const long = (await createApp(ios({ appName: 'A Very Long Application Name That Goes On And On' }))).path as string;
    expect(long).toMatch(/^[a-z0-9-]+-[a-z0-9]{6}$/);
    expect(long.length).toBeLessThanOrEqual(24 + 7);
    expect(long).not.toContain('--');
  });

  it('generates a different SDK key per app and shows it on every read', async () => {
    const a = await createApp(ios({ appName: 'Key One' }));
    const b = await createApp(ios({ appName: 'Key Two' }));
    expect(a.apiKey).toMatch(/^spm_[0-9A-Za-z]{32}$/);
    expect(b.apiKey).toMatch(/^spm_[0-9A-Za-z]{32}$/);
    expect(a.apiKey).not.toBe(b.apiKey);
    const read = await svc.service('GET', `/mobile-apps/${a.id}`, org.apiKey);
    expect(read.json().apiKey).toBe(a.apiKey);
    const list = await svc.service('GET', '/mobile-apps?search=key%20one', org.apiKey);
    expect(list.json().content.map((x: Json) => x.apiKey)).toEqual([a.apiKey]);
  });

  it('never stores the SDK key in plaintext', async () => {
    const app = await createApp(ios({ appName: 'Sealed Key' }));
    const apiKey = app.apiKey as string;
    const secretPart = apiKey.slice('spm_'.length);
    const sql = svc.container.postgres.sql;
    const [row] = await sql<{ api_key_sealed: string; api_key_hash: Buffer; whole: string }[]>`
      select api_key_sealed, api_key_hash, to_jsonb(m)::text as whole from mobile_apps m where id = ${app.id as number}`;
    expect(row).toBeDefined();
    expect(row!.api_key_sealed.length).toBeGreaterThan(0);
    expect(row!.api_key_sealed).not.toContain(secretPart);
    for (const encoding of ['utf8', 'latin1', 'hex', 'base64'] as const) {
      expect(Buffer.from(row!.api_key_hash).toString(encoding)).not.toContain(secretPart);
    }
    // No other column carries it either.
    expect(row!.whole).not.toContain(secretPart);
  });

  it('requires platform, appName and bundleId', async () => {
    const { platform: _p, ...noPlatform } = ios();
    await expectCreateRefused(noPlatform, 'platform');
    for (const platform of ['ios', 'WINDOWS', '', 1]) await expectCreateRefused(ios({ platform }), 'platform');
    const { appName: _a, ...noName } = ios();
    await expectCreateRefused(noName, 'appName');
    await expectCreateRefused(ios({ appName: '' }), 'appName');
    await expectCreateRefused(ios({ appName: '   ' }), 'appName');
    const { bundleId: _b, ...noBundle } = ios();
    await expectCreateRefused(noBundle, 'bundleId');
  });

  it('accepts reverse-DNS bundle ids and package names only', async () => {
    for (const bundleId of ['com.acme.shop', 'com.Acme.Shop2', 'kr.co.acme_shop', 'io.acme-app.ios']) {
      expect((await createApp(ios({ bundleId }))).bundleId).toBe(bundleId);
    }
    for (const bundleId of [
      'acme',
      'com acme',
      'com. acme',
      '.com.acme',
      'com..acme',
      'com.acme.',
      '1com.acme',
      'com/acme',
    ]) {
      await expectCreateRefused(ios({ bundleId }), 'bundleId');
    }
  });

  it('normalises the scheme to <scheme>:// and refuses web and system schemes', async () => {
    for (const scheme of ['acmeshop', 'acmeshop:', 'acmeshop://', 'AcmeShop://', ' acmeshop:// ']) {
      expect((await createApp(ios({ scheme }))).scheme, scheme).toBe('acmeshop://');
    }
    expect((await createApp(ios({ scheme: 'fb123.acme+x-y' }))).scheme).toBe('fb123.acme+x-y://');
    for (const scheme of [
      'http',
      'https://',
      'HTTPS://',
      'javascript:',
      'data:',
      'file://',
      'intent://',
      '1abc',
      'acme shop',
      'acme:/',
      'acme://x',
    ]) {
      await expectCreateRefused(ios({ scheme }), 'scheme');
    }
    expect((await createApp(ios({ scheme: '' }))).scheme).toBeNull();
    expect((await createApp(ios({ scheme: null }))).scheme).toBeNull();
  });

  it('takes a 10-character Apple team id on iOS only', async () => {
    expect((await createApp(ios({ teamId: 'A1B2C3D4E5' }))).teamId).toBe('A1B2C3D4E5');
    for (const teamId of ['abc', 'ABCDE1234', 'ABCDE123456', 'abcde12345', 'ABCDE-1234']) {
      await expectCreateRefused(ios({ teamId }), 'teamId');
    }
    await expectCreateRefused(android({ teamId: 'A1B2C3D4E5' }), 'teamId');
    expect((await createApp(android({ teamId: '' }))).teamId).toBeNull();
  });

  it('takes SHA-256 certificate fingerprints on Android only, upper-cased', async () => {
    const app = await createApp(android({ sha256CertFingerprints: [FINGERPRINT.toLowerCase()] }));
    expect(app.sha256CertFingerprints).toEqual([FINGERPRINT]);
    expect(app.teamId).toBeNull();
    const short = FINGERPRINT.split(':').slice(0, 31).join(':');
    for (const bad of [short, `${FINGERPRINT}:AB`, FINGERPRINT.replace(/:/g, ''), FINGERPRINT.replace('1', 'G'), '']) {
      await expectCreateRefused(android({ sha256CertFingerprints: [bad] }), 'sha256CertFingerprints');
    }
    await expectCreateRefused(ios({ sha256CertFingerprints: [FINGERPRINT] }), 'sha256CertFingerprints');
    expect((await createApp(ios({ sha256CertFingerprints: [] }))).sha256CertFingerprints).toEqual([]);
  });

  it('requires https store and icon URLs', async () => {
    for (const field of ['storeUrl', 'appIconUrl']) {
      for (const bad of [
        'http://play.google.com/store/apps/details?id=com.acme',
        'ftp://x.example/icon.png',
        'not a url',
        'https://',
      ]) {
        await expectCreateRefused(android({ [field]: bad }), field);
      }
      const ok = await createApp(android({ [field]: 'https://play.google.com/store/apps/details?id=com.acme' }));
      expect(ok[field]).toBe('https://play.google.com/store/apps/details?id=com.acme');
      expect((await createApp(android({ [field]: '' })))[field]).toBeNull();
    }
  });

  it('bounds the deep-link token lifetime', async () => {
    expect((await createApp(ios({ deepLinkTokenTtlSeconds: 60 }))).deepLinkTokenTtlSeconds).toBe(60);
    await expectCreateRefused(ios({ deepLinkTokenTtlSeconds: 59 }), 'deepLinkTokenTtlSeconds');
    await expectCreateRefused(ios({ deepLinkTokenTtlSeconds: 604_801 }), 'deepLinkTokenTtlSeconds');
  });

  it('needs a valid API key', async () => {
    expect((await svc.service('POST', '/mobile-apps', 'sp_live_nope', ios())).statusCode).toBe(401);
    expect((await svc.service('GET', '/mobile-apps', '')).statusCode).toBe(401);
  });
});

describe('GET /mobile-apps', () => {
  let listOrg: { id: number; apiKey: string };
  const created: Array<Json & { id: number }> = [];

  beforeAll(async () => {
    listOrg = await svc.createOrganization('List Org');
    for (const name of ['Alpha Store', 'Beta Games', 'alpha MUSIC', 'Gamma', 'ALPHABET Soup']) {
      created.push(await createApp(ios({ appName: name }), listOrg.apiKey));
    }
  });

  const list = (query: string, apiKey = listOrg.apiKey) => svc.service('GET', `/mobile-apps${query}`, apiKey);

  it('answers the numbered wrapper with exactly its fields, newest first', async () => {
    const res = await list('');
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(Object.keys(page).sort()).toEqual(
      ['content', 'first', 'last', 'number', 'size', 'totalElements', 'totalPages'].sort(),
    );
    expect(page).toMatchObject({ totalElements: 5, totalPages: 1, size: 20, number: 0, first: true, last: true });
    expect(page.content.map((a: Json) => a.id)).toEqual(created.map((a) => a.id).reverse());
    expect(Object.keys(page.content[0]).sort()).toEqual([...SPEC_FIELDS, ...EXTENSION_FIELDS].sort());
  });

  it('pages with page and size', async () => {
    const newestFirst = created.map((a) => a.id).reverse();
    const p0 = (await list('?page=0&size=2')).json();
    expect(p0).toMatchObject({ totalElements: 5, totalPages: 3, size: 2, number: 0, first: true, last: false });
    expect(p0.content.map((a: Json) => a.id)).toEqual(newestFirst.slice(0, 2));
    const p1 = (await list('?page=1&size=2')).json();
    expect(p1).toMatchObject({ number: 1, first: false, last: false });
    expect(p1.content.map((a: Json) => a.id)).toEqual(newestFirst.slice(2, 4));
    const p2 = (await list('?page=2&size=2')).json();
    expect(p2).toMatchObject({ number: 2, first: false, last: true });
    expect(p2.content.map((a: Json) => a.id)).toEqual(newestFirst.slice(4));
    const beyond = (await list('?page=7&size=2')).json();
    expect(beyond).toMatchObject({ content: [], totalElements: 5, number: 7, last: true });
    const max = await list('?size=100');
    expect(max.statusCode).toBe(200);
    expect(max.json().size).toBe(100);
  });

  it('refuses page and size out of bounds with 400', async () => {
    for (const query of ['?size=0', '?size=101', '?size=-1', '?size=abc', '?size=2.5', '?page=-1', '?page=x']) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, error: 'Bad Request' });
    }
  });

  it('searches the app name, case-insensitively, as a substring', async () => {
    const names = async (query: string) => (await list(query)).json().content.map((a: Json) => a.appName);
    expect(await names('?search=alpha')).toEqual(['ALPHABET Soup', 'alpha MUSIC', 'Alpha Store']);
    expect(await names('?search=ALPHA%20m')).toEqual(['alpha MUSIC']);
    expect(await names('?search=ga')).toEqual(['Gamma', 'Beta Games']);
    expect(await names('?search=nothing-like-this')).toEqual([]);
    // LIKE wildcards are literal characters.
    expect(await names('?search=%25')).toEqual([]);
    expect(await names('?search=_')).toEqual([]);
    const counted = (await list('?search=alpha&size=1')).json();
    expect(counted).toMatchObject({ totalElements: 3, totalPages: 3, last: false });
    expect((await list(`?search=${'x'.repeat(101)}`)).statusCode).toBe(400);
  });

  it("never lists another organization's apps", async () => {
    const ids = (await list('?size=100', org.apiKey)).json().content.map((a: Json) => a.id);
    for (const app of created) expect(ids).not.toContain(app.id);
  });
});

describe('GET /mobile-apps/{id}', () => {
  it('reads the app as created', async () => {
    const app = await createApp(
      android({ appName: 'Readable', storeUrl: 'https://play.google.com/store/apps/details?id=com.r' }),
    );
    const res = await svc.service('GET', `/mobile-apps/${app.id}`, org.apiKey);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(app);
  });

  it("answers 404 for an unknown id or another organization's app, 400 for a malformed id", async () => {
    const other = await svc.createOrganization('Other Org');
    const theirs = await createApp(ios({ appName: 'Their Secret App' }), other.apiKey);
    for (const id of [theirs.id, 987_654_321]) {
      const res = await svc.service('GET', `/mobile-apps/${id}`, org.apiKey);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ status: 404, error: 'Not Found' });
      expect(res.body).not.toContain('Their Secret App');
    }
    for (const id of ['abc', '0', '-1', '1.5']) {
      expect((await svc.service('GET', `/mobile-apps/${id}`, org.apiKey)).statusCode, id).toBe(400);
    }
  });
});

describe('PUT /mobile-apps/{id}', () => {
  it('updates only the fields sent and keeps the path and key', async () => {
    const app = await createApp(
      ios({
        appName: 'Before',
        teamId: 'ABCDE12345',
        scheme: 'before',
        storeUrl: 'https://apps.apple.com/app/id1',
        appIconUrl: 'https://cdn.example.com/i.png',
      }),
    );
    const res = await svc.service('PUT', `/mobile-apps/${app.id}`, org.apiKey, { appName: 'After' });
    expect(res.statusCode).toBe(200);
    const updated = res.json();
    expect(updated).toEqual({ ...app, appName: 'After', updatedAt: updated.updatedAt });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(app.updatedAt as string));
    expect((await svc.service('GET', `/mobile-apps/${app.id}`, org.apiKey)).json()).toEqual(updated);

    const more = (
      await svc.service('PUT', `/mobile-apps/${app.id}`, org.apiKey, {
        bundleId: 'com.after.app',
        scheme: 'After://',
        teamId: 'ZZZZZ99999',
        storeUrl: null,
        appIconUrl: '',
      })
    ).json();
    expect(more).toMatchObject({
      appName: 'After',
      bundleId: 'com.after.app',
      scheme: 'after://',
      teamId: 'ZZZZZ99999',
      storeUrl: null,
      appIconUrl: null,
      path: app.path,
      apiKey: app.apiKey,
      platform: 'IOS',
    });
    // An empty body changes nothing.
    const same = await svc.service('PUT', `/mobile-apps/${app.id}`, org.apiKey, {});
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ appName: 'After', bundleId: 'com.after.app', scheme: 'after://' });
  });

  it('turns the iOS clipboard match on and off (opt-in: off unless asked for)', async () => {
    const app = await createApp(ios({ appName: 'Clipboard', clipboardMatch: true }));
    expect(app.clipboardMatch).toBe(true);
    const off = await svc.service('PUT', `/mobile-apps/${app.id}`, org.apiKey, { clipboardMatch: false });
    expect(off.json()).toMatchObject({ clipboardMatch: false, appName: 'Clipboard' });
    const bad = await svc.service('PUT', `/mobile-apps/${app.id}`, org.apiKey, { clipboardMatch: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('clipboardMatch');
  });

  it('applies the create rules to the fields sent', async () => {
    const app = await createApp(ios({ appName: 'Strict' }));
    for (const [body, field] of [
      [{ platform: 'WEB' }, 'platform'],
      [{ appName: '' }, 'appName'],
      [{ appName: null }, 'appName'],
      [{ bundleId: 'acme' }, 'bundleId'],
      [{ bundleId: null }, 'bundleId'],
      [{ scheme: 'https' }, 'scheme'],
      [{ teamId: 'abc' }, 'teamId'],
      [{ storeUrl: 'http://x.example.com' }, 'storeUrl'],
      [{ appIconUrl: 'nope' }, 'appIconUrl'],
      [{ sha256CertFingerprints: [FINGERPRINT] }, 'sha256CertFingerprints'],
    ] as const) {
      const res = await svc.service('PUT', `/mobile-apps/${app.id}`, org.apiKey, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toContain(`body.${field}`);
    }
    expect((await svc.service('GET', `/mobile-apps/${app.id}`, org.apiKey)).json()).toEqual(app);
  });

  it('clears the team id when the platform changes to Android, and keeps platform fields consistent', async () => {
    const app = await createApp(ios({ appName: 'Switcher', teamId: 'ABCDE12345' }));
    const res = await svc.service('PUT', `/mobile-apps/${app.id}`, org.apiKey, { platform: 'ANDROID' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ platform: 'ANDROID', teamId: null, path: app.path, apiKey: app.apiKey });
    // An Android app takes no team id ...
    const team = await svc.service('PUT', `/mobile-apps/${app.id}`, org.apiKey, { teamId: 'ABCDE12345' });
    expect(team.statusCode).toBe(400);
    expect(team.json().message).toContain('body.teamId');
    // ... but fingerprints, which go when it turns back into an iOS app.
    const fp = await svc.service('PUT', `/mobile-apps/${app.id}`, org.apiKey, {
      sha256CertFingerprints: [FINGERPRINT.toLowerCase()],
    });
    expect(fp.json().sha256CertFingerprints).toEqual([FINGERPRINT]);
    const back = await svc.service('PUT', `/mobile-apps/${app.id}`, org.apiKey, {
      platform: 'IOS',
      teamId: 'QWERT12345',
    });
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({ platform: 'IOS', teamId: 'QWERT12345', sha256CertFingerprints: [] });
    // Switching platform and sending a team id for Android in one go is refused.
    const both = await svc.service('PUT', `/mobile-apps/${app.id}`, org.apiKey, {
      platform: 'ANDROID',
      teamId: 'QWERT12345',
    });
    expect(both.statusCode).toBe(400);
    expect((await svc.service('GET', `/mobile-apps/${app.id}`, org.apiKey)).json()).toMatchObject({
      platform: 'IOS',
      teamId: 'QWERT12345',
    });
  });

  it('refuses to change the platform of an app a short URL or campaign links (409 APP_IN_USE)', async () => {
    const linkedByUrl = await createApp(ios({ appName: 'Linked By Url', teamId: 'ABCDE12345' }));
    const url = await svc.service('POST', '/urls', org.apiKey, {
      url: 'https://example.com/linked',
      iosAppId: linkedByUrl.id,
    });
    expect(url.statusCode).toBe(201);
    const linkedByCampaign = await createApp(android({ appName: 'Linked By Campaign' }));
    const campaign = await svc.service('POST', '/campaigns', org.apiKey, {
      name: 'Platform Lock',
      originalUrl: 'https://example.com/c',
      androidAppId: linkedByCampaign.id,
    });
    expect(campaign.statusCode).toBe(201);

    for (const [app, platform] of [
      [linkedByUrl, 'ANDROID'],
      [linkedByCampaign, 'IOS'],
    ] as const) {
      const res = await svc.service('PUT', `/mobile-apps/${app.id}`, org.apiKey, { platform, appName: 'Renamed' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ status: 409, error: 'Conflict', code: 'APP_IN_USE' });
      expect((await svc.service('GET', `/mobile-apps/${app.id}`, org.apiKey)).json()).toEqual(app);
      // Other changes, and naming the same platform, are fine.
      const ok = await svc.service('PUT', `/mobile-apps/${app.id}`, org.apiKey, {
        platform: app.platform,
        appName: 'Renamed',
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ platform: app.platform, appName: 'Renamed' });
    }

    // Once the link lets go of the app, the platform may change.
    expect((await svc.service('PUT', `/urls/${url.json().id}`, org.apiKey, { iosAppId: null })).statusCode).toBe(200);
    const freed = await svc.service('PUT', `/mobile-apps/${linkedByUrl.id}`, org.apiKey, { platform: 'ANDROID' });
    expect(freed.statusCode).toBe(200);
    expect(freed.json()).toMatchObject({ platform: 'ANDROID', teamId: null });
  });

  it("answers 404 for an unknown id or another organization's app and leaves that app alone", async () => {
    const other = await svc.createOrganization('Other Put Org');
    const theirs = await createApp(ios({ appName: 'Not Yours' }), other.apiKey);
    for (const id of [theirs.id, 987_654_321]) {
      const res = await svc.service('PUT', `/mobile-apps/${id}`, org.apiKey, {
        appName: 'Hijacked',
        platform: 'ANDROID',
      });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('Not Yours');
    }
    expect((await svc.service('GET', `/mobile-apps/${theirs.id}`, other.apiKey)).json()).toEqual(theirs);
    expect((await svc.service('PUT', '/mobile-apps/abc', org.apiKey, { appName: 'x' })).statusCode).toBe(400);
  });
});

describe('POST /mobile-apps/{id}/api-key (extension)', () => {
  it('issues a new SDK key: the old one is refused from its next call, the new one works', async () => {
    const app = await createApp(ios({ appName: 'Rotating' }));
    const sdkCall = (key: unknown) =>
      svc.inject({
        method: 'GET',
        url: '/api/v1/sdk/mobile/deeplink/match?token=no-such-token',
        headers: { 'x-app-id': String(app.id), 'x-mobile-app-api-key': String(key) },
      });
    // Signed in, the unknown token is the answer: 404.
    expect((await sdkCall(app.apiKey)).statusCode).toBe(404);
    const res = await svc.service('POST', `/mobile-apps/${app.id}/api-key`, org.apiKey);
    expect(res.statusCode).toBe(200);
    const renewed = res.json();
    expect(renewed.apiKey).toMatch(/^spm_/);
    expect(renewed.apiKey).not.toBe(app.apiKey);
    expect({ ...renewed, apiKey: app.apiKey, updatedAt: app.updatedAt }).toEqual(app);
    expect((await sdkCall(app.apiKey)).statusCode).toBe(401);
    expect((await sdkCall(renewed.apiKey)).statusCode).toBe(404);
    expect((await svc.service('GET', `/mobile-apps/${app.id}`, org.apiKey)).json().apiKey).toBe(renewed.apiKey);
  });

  it("answers 404 for another organization's app, whose key stays", async () => {
    const other = await svc.createOrganization('Other Key Org');
    const theirs = await createApp(android({ appName: 'Keep Mine' }), other.apiKey);
    expect((await svc.service('POST', `/mobile-apps/${theirs.id}/api-key`, org.apiKey)).statusCode).toBe(404);
    expect((await svc.service('GET', `/mobile-apps/${theirs.id}`, other.apiKey)).json().apiKey).toBe(theirs.apiKey);
  });
});

describe('DELETE /mobile-apps/{id}', () => {
  it('answers 204 without a body; the app is gone after', async () => {
    const app = await createApp(ios({ appName: 'Doomed' }));
    const res = await svc.service('DELETE', `/mobile-apps/${app.id}`, org.apiKey);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await svc.service('GET', `/mobile-apps/${app.id}`, org.apiKey)).statusCode).toBe(404);
    expect((await svc.service('PUT', `/mobile-apps/${app.id}`, org.apiKey, { appName: 'x' })).statusCode).toBe(404);
    expect((await svc.service('DELETE', `/mobile-apps/${app.id}`, org.apiKey)).statusCode).toBe(404);
    const ids = (await svc.service('GET', '/mobile-apps?search=doomed', org.apiKey))
      .json()
      .content.map((a: Json) => a.id);
    expect(ids).not.toContain(app.id);
  });

  it("answers 404 for an unknown id or another organization's app, which stays", async () => {
    const other = await svc.createOrganization('Other Delete Org');
    const theirs = await createApp(ios({ appName: 'Keep Me' }), other.apiKey);
    expect((await svc.service('DELETE', `/mobile-apps/${theirs.id}`, org.apiKey)).statusCode).toBe(404);
    expect((await svc.service('DELETE', '/mobile-apps/987654321', org.apiKey)).statusCode).toBe(404);
    expect((await svc.service('DELETE', '/mobile-apps/abc', org.apiKey)).statusCode).toBe(400);
    expect((await svc.service('GET', `/mobile-apps/${theirs.id}`, other.apiKey)).statusCode).toBe(200);
  });

  it('leaves a short URL that linked the app readable, with iosAppId null', async () => {
    const app = await createApp(ios({ appName: 'Url Linked' }));
    const other = await createApp(android({ appName: 'Url Linked Android' }));
    const created = await svc.service('POST', '/urls', org.apiKey, {
      url: 'https://example.com',
      iosAppId: app.id,
      androidAppId: other.id,
    });
    expect(created.statusCode).toBe(201);
    const url = created.json();
    expect(url).toMatchObject({ iosAppId: app.id, androidAppId: other.id });

    expect((await svc.service('DELETE', `/mobile-apps/${app.id}`, org.apiKey)).statusCode).toBe(204);
    const read = await svc.service('GET', `/urls/${url.id}`, org.apiKey);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      id: url.id,
      shortUrl: url.shortUrl,
      originalUrl: 'https://example.com',
      iosAppId: null,
      androidAppId: other.id,
    });
    const listed = (await svc.service('GET', '/urls?size=100', org.apiKey))
      .json()
      .content.find((u: Json) => u.id === url.id);
    expect(listed).toMatchObject({ iosAppId: null, androidAppId: other.id });
  });

  it('leaves a campaign that linked the app readable, with androidAppId and androidAppName null', async () => {
    const app = await createApp(android({ appName: 'Campaign Linked', appIconUrl: 'https://cdn.example.com/c.png' }));
    const created = await svc.service('POST', '/campaigns', org.apiKey, {
      name: 'App Goes Away',
      originalUrl: 'https://example.com/away',
      androidAppId: app.id,
    });
    expect(created.statusCode).toBe(201);
    const campaign = created.json();
    expect(campaign).toMatchObject({
      androidAppId: app.id,
      androidAppName: 'Campaign Linked',
      androidAppIconUrl: 'https://cdn.example.com/c.png',
      appPath: app.path,
    });

    expect((await svc.service('DELETE', `/mobile-apps/${app.id}`, org.apiKey)).statusCode).toBe(204);
    const read = await svc.service('GET', `/campaigns/${campaign.id}`, org.apiKey);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      id: campaign.id,
      alias: campaign.alias,
      originalUrl: 'https://example.com/away',
      androidAppId: null,
      androidAppName: null,
      androidAppIconUrl: null,
      appPath: null,
    });
  });
});
