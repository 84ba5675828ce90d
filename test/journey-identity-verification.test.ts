// What the public app id alone may do with identify and opt-in: a browser learns nothing stored that
// it did not send itself; and once the app owner turns identity verification on, a browser must
// also send userHash = HMAC-SHA256(identity secret, externalUserId) (hex), which the partner's server
// computes. Apps with their key (mobile) answer and work as before.
import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, parseKeyring } from '../src/shared/secret-box.js';
import { expectError, ISO_UTC } from './support/error-body.js';
import { journeyClient, journeyOrg, type JourneyApp } from './support/journey.js';
import { serviceForFile } from './support/service.js';

let acme: JourneyApp;
let call: ReturnType<typeof journeyClient>;

const svc = serviceForFile();

beforeAll(async () => {
  acme = await journeyOrg(svc, 'Acme', 'FREE', false);
  call = journeyClient(svc, acme);
});

const userHash = (secret: string, externalUserId: string) =>
  createHmac('sha256', secret).update(externalUserId, 'utf8').digest('hex');

const STORED = {
  externalUserId: 'member-a',
  name: '김민수',
  phone: '010-1234-5678',
  email: 'minsu@example.com',
  pushIdentify: 'fcm:secret-token',
  smsOptIn: true,
  emailOptIn: true,
  smsAdOptIn: false,
  nightAdOptIn: true,
};

describe('a browser (public app id only)', () => {
  beforeAll(async () => {
    const res = await call('POST', '/identify', STORED, { mobile: true });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('gets back no stored value from identify, only what it sent', async () => {
    const res = await call('POST', '/identify', { externalUserId: 'member-a' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      action: 'updated',
      externalUserId: 'member-a',
      name: null,
      phone: null,
      email: null,
      pushIdentify: null,
      smsOptIn: null,
      emailOptIn: null,
      pushOptIn: null,
      smsAdOptIn: null,
      emailAdOptIn: null,
      pushAdOptIn: null,
      nightAdOptIn: null,
      createdAt: null,
      updatedAt: null,
      consentChanges: [],
    });
    for (const secret of ['김민수', '5678', 'minsu', 'fcm:']) expect(res.body).not.toContain(secret);
  });

  it('hears its own values back (masked), and not whether a flag it sent was stored before', async () => {
    const res = await call('POST', '/identify', {
      externalUserId: 'member-a',
      phone: '010-9999-0000',
      smsOptIn: false,
    });
    expect(res.json()).toMatchObject({
      name: null,
      phone: '010-****-0000',
      email: null,
      smsOptIn: false,
      emailOptIn: null,
      nightAdOptIn: null,
      consentChanges: [],
    });
    const optIn = await call('POST', '/opt-in', { externalUserId: 'member-a', pushOptIn: true });
    expect(optIn.statusCode, optIn.body).toBe(200);
    expect(optIn.json()).toMatchObject({
      name: null,
      phone: null,
      email: null,
      smsOptIn: null,
      emailOptIn: null,
      pushOptIn: true,
      nightAdOptIn: null,
      consentChanges: [],
    });
    // The changes were made and recorded, with the browser as their channel.
    const stored = (await svc.service('GET', '/users/member-a', acme.org.apiKey)).json();
    expect(stored).toMatchObject({
      name: '김민수',
      phone: '+821099990000',
      smsOptIn: false,
      pushOptIn: true,
      emailOptIn: true,
    });
    expect(
      stored.consentHistory
        .filter((c: { channel: string }) => c.channel === 'browser')
        .map((c: { flag: string }) => c.flag)
        .sort(),
    ).toEqual(['pushOptIn', 'smsOptIn']);
  });

  it('leaves the answer to a caller with the app key as it was: the whole record, masked', async () => {
    const res = await call('POST', '/identify', { externalUserId: 'member-a' }, { mobile: true });
    expect(res.json()).toMatchObject({
      name: '김민수',
      phone: '010-****-0000',
      email: 'm***@example.com',
      pushIdentify: 'fcm:secret-token',
      emailOptIn: true,
      pushOptIn: true,
    });
    expect(res.json().createdAt).toMatch(ISO_UTC);
  });
});

describe('identity verification', () => {
  const path = (app: JourneyApp) => `/mobile-apps/${app.appId}/identity-verification`;
  let secret: string;

  it('is off by default, and shown in the mobile app record', async () => {
    const app = (await svc.service('GET', `/mobile-apps/${acme.appId}`, acme.org.apiKey)).json();
    expect(app).toMatchObject({ identityVerification: false, identitySecretIssuedAt: null });
  });

  it('issues the identity secret once when turned on, and keeps it sealed at rest', async () => {
    const res = await svc.service('POST', path(acme), acme.org.apiKey);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: acme.appId, identityVerification: true });
    expect(body.identitySecret).toMatch(/^spi_[A-Za-z0-9]{40,}$/);
    expect(body.identitySecretIssuedAt).toMatch(ISO_UTC);
    secret = body.identitySecret;

    const read = await svc.service('GET', `/mobile-apps/${acme.appId}`, acme.org.apiKey);
    expect(read.json()).toMatchObject({
      identityVerification: true,
      identitySecretIssuedAt: body.identitySecretIssuedAt,
    });
    expect(read.body).not.toContain(secret);
    const [row] = await svc.container.postgres.sql<{ identity_secret_sealed: string }[]>`
      select identity_secret_sealed from mobile_apps where id = ${acme.appId}`;
    expect(row!.identity_secret_sealed).not.toContain(secret);
    expect(createSecretBox(parseKeyring(svc.isolation.env.PII_ENCRYPTION_KEY!)).open(row!.identity_secret_sealed)).toBe(
      secret,
    );
  });

  it('refuses browser identify and opt-in without a valid userHash', async () => {
    expectError(await call('POST', '/identify', { externalUserId: 'member-a', smsOptIn: true }), 401, {
      code: 'USER_HASH_REQUIRED',
    });
    expectError(await call('POST', '/opt-in', { externalUserId: 'member-a', smsOptIn: true }), 401, {
      code: 'USER_HASH_REQUIRED',
    });
    expectError(
      await call('POST', '/identify', { externalUserId: 'member-a', userHash: userHash(secret, 'member-b') }),
      401,
      { code: 'USER_HASH_INVALID' },
    );
    expectError(
      await call('POST', '/opt-in', {
        externalUserId: 'member-a',
        smsOptIn: true,
        userHash: userHash('another secret', 'member-a'),
      }),
      401,
      { code: 'USER_HASH_INVALID' },
    );
    expectError(await call('POST', '/identify', { externalUserId: 'member-a', userHash: 'not hex' }), 400, {
      field: 'userHash',
    });
    // Nothing changed.
    expect((await svc.service('GET', '/users/member-a', acme.org.apiKey)).json().smsOptIn).toBe(false);
  });

  it('accepts the hash the partner server computes, in upper or lower case', async () => {
    const res = await call('POST', '/identify', {
      externalUserId: 'member-a',
      smsOptIn: true,
      userHash: userHash(secret, 'member-a'),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ smsOptIn: true, name: null });
    const optIn = await call('POST', '/opt-in', {
      externalUserId: 'member-a',
      nightAdOptIn: false,
      userHash: userHash(secret, 'member-a').toUpperCase(),
    });
    expect(optIn.statusCode, optIn.body).toBe(200);
  });

  it('does not ask the app key holders (mobile) for a hash', async () => {
    const res = await call('POST', '/identify', { externalUserId: 'member-c', name: 'C' }, { mobile: true });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses browsers that name another app of the organization, which has no secret to check against', async () => {
    const other = await svc.createApp(acme.org, {
      platform: 'ANDROID',
      appName: 'Acme Android',
      bundleId: 'com.example.acme',
    });
    const otherApp: JourneyApp = { org: acme.org, appId: other.id, appKey: other.apiKey };
    expectError(
      await journeyClient(svc, otherApp)('POST', '/identify', { externalUserId: 'member-a', smsOptIn: false }),
      403,
      { code: 'IDENTITY_VERIFICATION_REQUIRED' },
    );
    expectError(
      await journeyClient(svc, otherApp)('POST', '/identify', {
        externalUserId: 'member-a',
        userHash: userHash(secret, 'member-a'),
      }),
      403,
      { code: 'IDENTITY_VERIFICATION_REQUIRED' },
    );
  });

  it('rotates the secret: the old hashes stop working at once', async () => {
    const res = await svc.service('POST', path(acme), acme.org.apiKey);
    const rotated = res.json().identitySecret as string;
    expect(rotated).not.toBe(secret);
    expectError(
      await call('POST', '/identify', { externalUserId: 'member-a', userHash: userHash(secret, 'member-a') }),
      401,
      { code: 'USER_HASH_INVALID' },
    );
    expect(
      (await call('POST', '/identify', { externalUserId: 'member-a', userHash: userHash(rotated, 'member-a') }))
        .statusCode,
    ).toBe(200);
  });

  it('counts wrong hashes as failed authentications of the address: a guesser is held back, others are not', async () => {
    const rotated = (await svc.service('POST', path(acme), acme.org.apiKey)).json().identitySecret as string;
    const from = (remoteAddress: string, hash: string) =>
      svc.inject({
        method: 'POST',
        url: '/api/v1/cross-platform/identify',
        remoteAddress,
        headers: { 'x-app-id': String(acme.appId) },
        payload: { externalUserId: 'member-a', userHash: hash },
      });
    const limit = svc.config.authFailures.limit;
    for (let i = 0; i < limit; i++)
      expect((await from('198.51.100.7', userHash(`guess ${i}`, 'member-a'))).statusCode).toBe(401);
    const held = await from('198.51.100.7', userHash(rotated, 'member-a'));
    expectError(held, 429, { code: 'USER_HASH_FAILURES' });
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('198.51.100.8', userHash(rotated, 'member-a'))).statusCode).toBe(200);
  });

  it("belongs to the app's organization only", async () => {
    const rival = await journeyOrg(svc, 'Rival', 'FREE', false);
    expectError(await svc.service('POST', path(acme), rival.org.apiKey), 404, { code: 'MOBILE_APP_NOT_FOUND' });
    expectError(await svc.service('DELETE', path(acme), rival.org.apiKey), 404, { code: 'MOBILE_APP_NOT_FOUND' });
    expectError(await svc.service('POST', path(acme), 'sp_live_wrong'), 401);
  });

  it('turns off, after which browsers are served without a hash again', async () => {
    const res = await svc.service('DELETE', path(acme), acme.org.apiKey);
    expect(res.statusCode, res.body).toBe(204);
    expect((await svc.service('GET', `/mobile-apps/${acme.appId}`, acme.org.apiKey)).json()).toMatchObject({
      identityVerification: false,
      identitySecretIssuedAt: null,
    });
    expect((await call('POST', '/identify', { externalUserId: 'member-a' })).statusCode).toBe(200);
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = (await svc.inject({ method: 'GET', url: '/openapi.json' })).json();
    const route = doc.paths['/api/v1/service/mobile-apps/{id}/identity-verification'];
    expect(Object.keys(route ?? {}).sort()).toEqual(['delete', 'post']);
    expect(JSON.stringify(doc.paths['/api/v1/cross-platform/identify'])).toContain('userHash');
  });
});
