// identify and opt-in (/api/v1/cross-platform) and the Service API users route: created then
// updated, null and omitted keep, masked PII for SDK callers, plaintext only behind X-API-KEY,
// ciphertext at rest that opens with the key it names, the consent history, validation.
import { beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, parseKeyring } from '../src/shared/secret-box.js';
import { expectError, ISO_UTC } from './support/error-body.js';
import { journeyClient, journeyOrg, type JourneyApp } from './support/journey.js';
import { serviceForFile } from './support/service.js';

let acme: JourneyApp;
let rival: JourneyApp;
let call: ReturnType<typeof journeyClient>;

const svc = serviceForFile();

beforeAll(async () => {
  // identify and opt-in need no add-on.
  acme = await journeyOrg(svc, 'Acme', 'FREE', false);
  rival = await journeyOrg(svc, 'Rival', 'FREE', false);
  call = journeyClient(svc, acme);
});

const FLAGS = ['smsOptIn', 'emailOptIn', 'pushOptIn', 'smsAdOptIn', 'emailAdOptIn', 'pushAdOptIn', 'nightAdOptIn'];

describe('identify', () => {
  it('creates the record (201, action created), then updates only what is sent (200, action updated)', async () => {
    const first = await call(
      'POST',
      '/identify',
      {
        externalUserId: 'member-1',
        name: '김민수',
        phone: '010-1234-5678',
        email: 'Minsu.Kim@Example.COM',
        pushIdentify: 'fcm:abc',
        smsOptIn: true,
        emailOptIn: false,
        nightAdOptIn: false,
      },
      { mobile: true },
    );
    expect(first.statusCode, first.body).toBe(201);
    const created = first.json();
    expect(created).toMatchObject({
      action: 'created',
      externalUserId: 'member-1',
      name: '김민수',
      phone: '010-****-5678',
      email: 'M***@example.com',
      pushIdentify: 'fcm:abc',
      smsOptIn: true,
      emailOptIn: false,
      pushOptIn: null,
      smsAdOptIn: null,
      emailAdOptIn: null,
      pushAdOptIn: null,
      nightAdOptIn: false,
    });
    expect(created.createdAt).toMatch(ISO_UTC);
    expect(
      created.consentChanges.map((c: { flag: string; from: unknown; to: boolean }) => [c.flag, c.from, c.to]),
    ).toEqual([
      ['smsOptIn', null, true],
      ['emailOptIn', null, false],
      ['nightAdOptIn', null, false],
    ]);
    expect(created.consentChanges[0]).toMatchObject({ source: 'identify', channel: 'mobile', appId: acme.appId });

    // null and omitted keep; sent values change. (A browser hears only what it sent:
    // journey-identity-verification.test.ts.)
    const second = await call(
      'POST',
      '/identify',
      { externalUserId: 'member-1', name: null, phone: null, smsOptIn: null, emailOptIn: true, pushOptIn: true },
      { mobile: true },
    );
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({
      action: 'updated',
      name: '김민수',
      phone: '010-****-5678',
      email: 'M***@example.com',
      pushIdentify: 'fcm:abc',
      smsOptIn: true,
      emailOptIn: true,
      pushOptIn: true,
      nightAdOptIn: false,
    });
    expect(second.json().consentChanges.map((c: { flag: string }) => c.flag)).toEqual(['emailOptIn', 'pushOptIn']);
    expect(second.json().consentChanges[0].channel).toBe('mobile');

    // The same values again change nothing and record nothing.
    const third = await call(
      'POST',
      '/identify',
      { externalUserId: 'member-1', smsOptIn: true, phone: '+82 10 1234 5678' },
      { mobile: true },
    );
    expect(third.json()).toMatchObject({ action: 'updated', consentChanges: [] });

    const newName = await call('POST', '/identify', { externalUserId: 'member-1', name: 'Minsu' }, { mobile: true });
    expect(newName.json()).toMatchObject({ name: 'Minsu', phone: '010-****-5678' });
  });

  it('never answers an SDK caller with plaintext phone or email', async () => {
    const res = await call('POST', '/identify', {
      externalUserId: 'member-2',
      phone: '+14155550123',
      email: 'alice@example.org',
    });
    expect(res.statusCode).toBe(201);
    expect(res.body).not.toContain('4155550123');
    expect(res.body).not.toContain('alice@');
    expect(res.json()).toMatchObject({ phone: '+14*****0123', email: 'a***@example.org' });
  });

  it('keeps phone and email sealed at rest: never the plaintext, opened by the key the value names', async () => {
    await call('POST', '/identify', {
      externalUserId: 'member-3',
      phone: '01098765432',
      email: 'secret.person@example.net',
    });
    const [row] = await svc.container.postgres.sql<Record<string, unknown>[]>`
      select * from journey_users where organization_id = ${acme.org.id} and external_user_id = 'member-3'`;
    const phoneSealed = row!.phone_sealed as string;
    const emailSealed = row!.email_sealed as string;
    expect(phoneSealed).not.toBe('+821098765432');
    expect(emailSealed).not.toBe('secret.person@example.net');
    const everything = JSON.stringify(row, (_k, v: unknown) =>
      v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v,
    );
    for (const plain of ['98765432', '1098765432', 'secret.person', 'example.net'])
      expect(everything).not.toContain(plain);
    // v1:<key id>:<base64>; the test keyring's key id is t1.
    expect(phoneSealed).toMatch(/^v1:t1:/);
    const box = createSecretBox(parseKeyring(svc.isolation.env.PII_ENCRYPTION_KEY!));
    expect(box.open(phoneSealed)).toBe('+821098765432');
    expect(box.open(emailSealed)).toBe('secret.person@example.net');
    // Blind indexes: 32-byte HMACs, not hashes anyone could recompute without the key.
    expect((row!.phone_index as Uint8Array).length).toBe(32);
    // Sealing is randomised: the same number twice gives two ciphertexts.
    await call('POST', '/identify', { externalUserId: 'member-3b', phone: '01098765432' });
    const [other] = await svc.container.postgres.sql<{ phone_sealed: string; phone_index: Uint8Array }[]>`
      select phone_sealed, phone_index from journey_users where organization_id = ${acme.org.id} and external_user_id = 'member-3b'`;
    expect(other!.phone_sealed).not.toBe(phoneSealed);
    expect(Buffer.from(other!.phone_index).equals(Buffer.from(row!.phone_index as Uint8Array))).toBe(true);
  });

  it('validates formats and lengths with 400 naming the field', async () => {
    expectError(await call('POST', '/identify', { externalUserId: 'v', email: 'not-an-email' }), 400, {
      field: 'email',
      code: 'VALIDATION_FAILED',
    });
    expectError(await call('POST', '/identify', { externalUserId: 'v', email: 'a@b' }), 400, { field: 'email' });
    expectError(
      await call('POST', '/identify', { externalUserId: 'v', email: `${'x'.repeat(250)}@example.com` }),
      400,
      { field: 'email' },
    );
    expectError(await call('POST', '/identify', { externalUserId: 'v', phone: '12345' }), 400, { field: 'phone' });
    expectError(await call('POST', '/identify', { externalUserId: 'v', phone: '02-123-4567' }), 400, {
      field: 'phone',
    });
    expectError(await call('POST', '/identify', { externalUserId: 'v', phone: '010-1234-56789-0' }), 400, {
      field: 'phone',
    });
    expectError(await call('POST', '/identify', { externalUserId: 'v', phone: 'call me' }), 400, { field: 'phone' });
    expectError(await call('POST', '/identify', { externalUserId: 'v', name: 'n'.repeat(101) }), 400, {
      field: 'name',
    });
    expectError(await call('POST', '/identify', { externalUserId: 'v', name: '   ' }), 400, { field: 'name' });
    expectError(await call('POST', '/identify', { externalUserId: 'v', smsOptIn: 'yes' }), 400, { field: 'smsOptIn' });
    expectError(await call('POST', '/identify', { externalUserId: '' }), 400, { field: 'externalUserId' });
    expectError(await call('POST', '/identify', { externalUserId: 'u'.repeat(201) }), 400, { field: 'externalUserId' });
    expectError(await call('POST', '/identify', { name: 'x' }), 400, { field: 'externalUserId' });
    // Nothing was half-written.
    const [count] = await svc.container.postgres.sql<{ n: number }[]>`
      select count(*)::int as n from journey_users where organization_id = ${acme.org.id} and external_user_id = 'v'`;
    expect(count!.n).toBe(0);
  });

  it('creates a user once when two first identifies race', async () => {
    const answers = await Promise.all(
      [0, 1, 2].map((i) => call('POST', '/identify', { externalUserId: 'racer', pushOptIn: i % 2 === 0 })),
    );
    expect(answers.map((a) => a.json().action).sort()).toEqual(['created', 'updated', 'updated']);
  });

  it('keeps organizations apart: the same externalUserId is another person elsewhere', async () => {
    const res = await journeyClient(svc, rival)('POST', '/identify', { externalUserId: 'member-1' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ action: 'created', name: null, phone: null, smsOptIn: null });
  });
});

describe('opt-in', () => {
  it('answers 404 USER_NOT_FOUND when identify never ran', async () => {
    expectError(await call('POST', '/opt-in', { externalUserId: 'nobody', smsOptIn: true }), 404, {
      code: 'USER_NOT_FOUND',
    });
  });

  it('changes only the flags sent and records the time of each change', async () => {
    await call('POST', '/identify', {
      externalUserId: 'member-4',
      email: 'four@example.com',
      smsOptIn: true,
      smsAdOptIn: true,
    });
    const before = Date.now();
    const res = await call(
      'POST',
      '/opt-in',
      { externalUserId: 'member-4', smsAdOptIn: false, nightAdOptIn: true, emailOptIn: null },
      { mobile: true },
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      externalUserId: 'member-4',
      smsOptIn: true,
      smsAdOptIn: false,
      nightAdOptIn: true,
      emailOptIn: null,
      email: 'f***@example.com',
    });
    expect(body.action).toBeUndefined();
    expect(
      body.consentChanges.map((c: { flag: string; from: unknown; to: boolean }) => [c.flag, c.from, c.to]),
    ).toEqual([
      ['smsAdOptIn', true, false],
      ['nightAdOptIn', null, true],
    ]);
    const at = Date.parse(body.consentChanges[0].changedAt);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    expect(body.consentChanges[0]).toMatchObject({ source: 'opt-in', channel: 'mobile' });
  });

  it('refuses a call without any flag, or with a flag that is not a boolean', async () => {
    await call('POST', '/identify', { externalUserId: 'member-5' });
    expectError(await call('POST', '/opt-in', { externalUserId: 'member-5' }), 400, { code: 'VALIDATION_FAILED' });
    expectError(await call('POST', '/opt-in', { externalUserId: 'member-5', smsOptIn: null }), 400);
    expectError(await call('POST', '/opt-in', { externalUserId: 'member-5', pushOptIn: 1 }), 400, {
      field: 'pushOptIn',
    });
    expectError(await call('POST', '/opt-in', { smsOptIn: true }), 400, { field: 'externalUserId' });
  });
});

describe('Service API: users', () => {
  it('reads the decrypted record with its consent history, newest first', async () => {
    await call('POST', '/identify', {
      externalUserId: 'member-6',
      name: 'Six',
      phone: '010-6666-7777',
      email: 'six@example.com',
      smsOptIn: true,
    });
    await call('POST', '/opt-in', { externalUserId: 'member-6', smsOptIn: false });
    await call('POST', '/opt-in', { externalUserId: 'member-6', smsOptIn: true, pushAdOptIn: false });
    const res = await svc.service('GET', '/users/member-6', acme.org.apiKey);
    expect(res.statusCode, res.body).toBe(200);
    const user = res.json();
    expect(user).toMatchObject({
      externalUserId: 'member-6',
      name: 'Six',
      phone: '+821066667777',
      email: 'six@example.com',
      smsOptIn: true,
      pushAdOptIn: false,
    });
    for (const f of FLAGS) expect(user).toHaveProperty(f);
    const history = user.consentHistory.map((c: { flag: string; from: unknown; to: boolean; source: string }) => [
      c.flag,
      c.from,
      c.to,
      c.source,
    ]);
    expect(history).toHaveLength(4);
    expect(history).toContainEqual(['smsOptIn', null, true, 'identify']);
    expect(history.slice(0, 2)).toEqual(
      expect.arrayContaining([
        ['smsOptIn', false, true, 'opt-in'],
        ['pushAdOptIn', null, false, 'opt-in'],
      ]),
    );
    expect(history[2]).toEqual(['smsOptIn', true, false, 'opt-in']);

    const paged = (await svc.service('GET', '/users/member-6/consent-history?size=3', acme.org.apiKey)).json();
    expect(paged).toMatchObject({ page: 0, size: 3, totalElements: 4, totalPages: 2, first: true, last: false });
    expect(paged.content).toHaveLength(3);
    const page2 = (await svc.service('GET', '/users/member-6/consent-history?size=3&page=1', acme.org.apiKey)).json();
    expect(page2.content.map((c: { flag: string; to: boolean }) => [c.flag, c.to])).toEqual([['smsOptIn', true]]);
  });

  it('finds users by phone or email in any notation, through the blind index', async () => {
    await call('POST', '/identify', { externalUserId: 'member-7', phone: '010-7777-8888', email: 'seven@example.com' });
    for (const q of ['phone=01077778888', 'phone=%2B82%2010%207777%208888', 'email=SEVEN@Example.com']) {
      const res = await svc.service('GET', `/users?${q}`, acme.org.apiKey);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().content.map((u: { externalUserId: string }) => u.externalUserId)).toEqual(['member-7']);
    }
    expect((await svc.service('GET', '/users?phone=01000000000', acme.org.apiKey)).json().content).toEqual([]);
    // Another organization finds nothing.
    expect((await svc.service('GET', '/users?phone=01077778888', rival.org.apiKey)).json().content).toEqual([]);
    expectError(await svc.service('GET', '/users', acme.org.apiKey), 400, { code: 'VALIDATION_FAILED' });
    expectError(await svc.service('GET', '/users?phone=abc', acme.org.apiKey), 400, { field: 'phone' });
  });

  it("answers 404 for an unknown or another organization's user, 401 without a key", async () => {
    expectError(await svc.service('GET', '/users/nobody', acme.org.apiKey), 404, { code: 'USER_NOT_FOUND' });
    expectError(await svc.service('GET', '/users/member-6', rival.org.apiKey), 404, { code: 'USER_NOT_FOUND' });
    expectError(await svc.service('GET', '/users/member-6/consent-history', rival.org.apiKey), 404);
    expectError(await svc.service('GET', '/users/member-6', 'sp_live_wrong'), 401, { code: 'API_KEY_INVALID' });
  });
});
