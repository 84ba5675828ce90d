// Redirect targets a customer sets (short URL destinations, mobile targets, campaign destinations,
// store URLs) may not name private, loopback, link-local, metadata or other non-public addresses in
// any spelling a browser accepts, nor local names: 400 with the field named. A private deployment
// turns the rule off with LINK_ALLOW_PRIVATE_TARGETS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './support/error-body.js';
import { isolate, startService, type Isolation, type TestService } from './support/service.js';

const NON_PUBLIC = [
  'https://10.0.0.1/',
  'https://169.254.169.254/latest/meta-data/',
  'https://2130706433/', // 127.0.0.1 as one number
  'https://0x7f.1/', // 127.0.0.1 in hex and short form
  'https://0177.0.0.1/', // octal
  'https://127.1/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::1]/',
  'https://[fd00:ec2::254]/',
  'https://[fe80::1]/',
  'https://192.168.1.10:8443/admin',
  'https://172.16.5.4/',
  'https://100.64.0.1/',
  'https://0.0.0.0/',
  'https://localhost/',
  'https://LOCALHOST./x',
  'https://printer.local/',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://app.localhost/',
];
const PUBLIC = [
  'https://example.com/a',
  'https://1.1.1.1/',
  'https://[2606:4700:4700::1111]/',
  'https://shop.example.co.kr/sale?x=1',
];

let isolation: Isolation;
let svc: TestService;
let apiKey: string;

beforeAll(async () => {
  isolation = await isolate();
  svc = await startService(isolation);
  apiKey = (await svc.createOrganization('Targets', 'PRO')).apiKey;
});

afterAll(async () => {
  await svc?.close();
  await isolation?.dispose();
});

describe('by default', () => {
  it('refuses every non-public destination of a new short URL with 400, and accepts public ones', async () => {
    for (const url of NON_PUBLIC)
      expectError(await svc.service('POST', '/urls', apiKey, { url }), 400, { field: 'url' });
    for (const url of PUBLIC) {
      const res = await svc.service('POST', '/urls', apiKey, { url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
    }
  });

  it('refuses them as mobile targets, on update, for campaigns and as store URLs', async () => {
    const link = (await svc.service('POST', '/urls', apiKey, { url: 'https://example.com/' })).json() as { id: number };
    const campaign = (
      await svc.service('POST', '/campaigns', apiKey, { name: 'Spring', originalUrl: 'https://example.com/' })
    ).json() as { id: number };
    for (const bad of [
      'https://10.0.0.1/',
      'https://[::ffff:127.0.0.1]/',
      'https://2130706433/',
      'https://localhost/',
    ]) {
      expectError(
        await svc.service('POST', '/urls', apiKey, { url: 'https://example.com/', mobileTargetUrl: bad }),
        400,
        { field: 'mobileTargetUrl' },
      );
      expectError(await svc.service('PUT', `/urls/${link.id}`, apiKey, { originalUrl: bad }), 400, {
        field: 'originalUrl',
      });
      expectError(await svc.service('POST', '/campaigns', apiKey, { name: 'Bad', originalUrl: bad }), 400, {
        field: 'originalUrl',
      });
      expectError(await svc.service('PUT', `/campaigns/${campaign.id}`, apiKey, { originalUrl: bad }), 400, {
        field: 'originalUrl',
      });
      expectError(
        await svc.service('POST', '/mobile-apps', apiKey, {
          platform: 'ANDROID',
          appName: 'A',
          bundleId: 'com.example.a',
          storeUrl: bad,
        }),
        400,
        { field: 'storeUrl' },
      );
    }
  });
});

describe('LINK_ALLOW_PRIVATE_TARGETS', () => {
  it('lets a private deployment link to its own network', async () => {
    await svc.close();
    svc = await startService(isolation, { LINK_ALLOW_PRIVATE_TARGETS: 'true' });
    const openKey = (await svc.createOrganization('Intranet', 'PRO')).apiKey;
    for (const url of [
      'https://10.0.0.1/',
      'https://192.168.1.10:8443/admin',
      'https://wiki.internal/',
      'https://[fd00::5]/',
    ]) {
      const res = await svc.service('POST', '/urls', openKey, { url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
    }
  });
});
