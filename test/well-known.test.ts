// /.well-known/apple-app-site-association and /.well-known/assetlinks.json: on the platform host
// every organization's apps under their own URL namespace, on a custom domain only its owner's;
// application/json straight away (no redirect, HEAD too), following app and domain changes.
import { beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { expectError } from './support/error-body.js';
import { serviceForFile } from './support/service.js';

const PLATFORM_HOST = 'sgnp.example';
const AASA = '/.well-known/apple-app-site-association';
const ASSET_LINKS = '/.well-known/assetlinks.json';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

const fingerprint = (seed: number) =>
  Array.from({ length: 32 }, (_, i) => ((i * 7 + seed) % 256).toString(16).padStart(2, '0').toUpperCase()).join(':');
const FP = [fingerprint(1), fingerprint(2), fingerprint(3)] as const;

interface Org {
  id: number;
  apiKey: string;
}
interface App {
  id: number;
  path: string;
  bundleId: string;
}

let acme: Org;
let beta: Org;
const apps: Record<string, App> = {};

async function createApp(owner: Org, body: Record<string, unknown>): Promise<App> {
  const res = await svc.service('POST', '/mobile-apps', owner.apiKey, { appName: 'App', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as App;
}

async function createDomain(owner: Org, domainName: string, status: string): Promise<number> {
  const res = await svc.admin('POST', `/organizations/${owner.id}/custom-domains`, { domainName });
  expect(res.statusCode, res.body).toBe(201);
  const id = (res.json() as { id: number }).id;
  if (status !== 'PENDING')
    expect((await svc.admin('PUT', `/custom-domains/${id}/status`, { status })).statusCode).toBe(200);
  return id;
}

const fetchFile = (path: string, host = PLATFORM_HOST, method: 'GET' | 'HEAD' = 'GET') =>
  svc.inject({ method, url: path, headers: { host, 'user-agent': IPHONE } });

async function json(path: string, host = PLATFORM_HOST) {
  const res = await fetchFile(path, host);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const details = (...entries: Array<[App, string, string[]]>) => ({
  applinks: {
    apps: [],
    details: entries.map(([app, teamId, paths]) => ({
      appIDs: [`${teamId}.${app.bundleId}`],
      components: paths.map((p) => ({ '/': p })),
      paths,
    })),
  },
});

const assetLink = (app: App, fingerprints: string[]) => ({
  relation: ['delegate_permission/common.handle_all_urls'],
  target: { namespace: 'android_app', package_name: app.bundleId, sha256_cert_fingerprints: fingerprints },
});

const svc = serviceForFile({ PUBLIC_BASE_URL: `https://${PLATFORM_HOST}`, DOMAIN_VERIFY_INTERVAL_MS: '0' });

beforeAll(async () => {
  acme = await svc.createOrganization('Acme');
  beta = await svc.createOrganization('Beta');
  apps.acmeIos = await createApp(acme, { platform: 'IOS', bundleId: 'com.acme.shop', teamId: 'ACMETEAM01' });
  apps.acmeIosNoTeam = await createApp(acme, { platform: 'IOS', bundleId: 'com.acme.noteam' });
  // Fingerprints arrive in any case and leave in upper case, the form Google's tools print.
  apps.acmeAndroid = await createApp(acme, {
    platform: 'ANDROID',
    bundleId: 'com.acme.shop',
    sha256CertFingerprints: [FP[0].toLowerCase(), FP[1]],
  });
  apps.acmeAndroidUnsigned = await createApp(acme, { platform: 'ANDROID', bundleId: 'com.acme.unsigned' });
  apps.betaIos = await createApp(beta, { platform: 'IOS', bundleId: 'io.beta.app', teamId: 'BETATEAM02' });
  apps.betaAndroid = await createApp(beta, {
    platform: 'ANDROID',
    bundleId: 'io.beta.app',
    sha256CertFingerprints: [FP[2]],
  });
  await createDomain(acme, 'links.acme.example', 'VERIFIED');
  await createDomain(beta, 'go.beta.example', 'ACTIVE');
  await createDomain(acme, 'pending.acme.example', 'PENDING');
});

describe(`well-known association files (${backend})`, () => {
  it('platform host: every iOS app with a team id claims its own namespace /{appPath}/*', async () => {
    expect(await json(AASA)).toEqual(
      details(
        [apps.acmeIos!, 'ACMETEAM01', [`/${apps.acmeIos!.path}/*`]],
        [apps.betaIos!, 'BETATEAM02', [`/${apps.betaIos!.path}/*`]],
      ),
    );
  });

  it('platform host: every Android app with signing certificates', async () => {
    expect(await json(ASSET_LINKS)).toEqual([
      assetLink(apps.acmeAndroid!, [FP[0], FP[1]]),
      assetLink(apps.betaAndroid!, [FP[2]]),
    ]);
  });

  it("a custom domain: its organization's apps only, iOS claiming the whole domain", async () => {
    expect(await json(AASA, 'links.acme.example')).toEqual(
      details([apps.acmeIos!, 'ACMETEAM01', [`/${apps.acmeIos!.path}/*`, '/*']]),
    );
    expect(await json(ASSET_LINKS, 'links.acme.example')).toEqual([assetLink(apps.acmeAndroid!, [FP[0], FP[1]])]);
    expect(await json(AASA, 'go.beta.example')).toEqual(
      details([apps.betaIos!, 'BETATEAM02', [`/${apps.betaIos!.path}/*`, '/*']]),
    );
    expect(await json(ASSET_LINKS, 'GO.Beta.Example:443')).toEqual([assetLink(apps.betaAndroid!, [FP[2]])]);
  });

  it('answers application/json directly (no redirect, no extension needed), for GET and HEAD', async () => {
    for (const path of [AASA, ASSET_LINKS]) {
      for (const host of [PLATFORM_HOST, 'links.acme.example']) {
        const res = await fetchFile(path, host);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^application\/json(;|$)/);
        expect(res.headers.location).toBeUndefined();
        expect(res.headers['cache-control']).toBe('public, max-age=300');
        const head = await fetchFile(path, host, 'HEAD');
        expect(head.statusCode).toBe(200);
        expect(head.headers['content-type']).toMatch(/^application\/json/);
        expect(head.body).toBe('');
      }
      // A trailing slash is the same file (the router ignores it), not a link look-up.
      expect((await fetchFile(`${path}/`)).json()).toEqual(await json(path));
    }
  });

  it('treats any other host (an IP, an internal name) as the platform host', async () => {
    expect(await json(AASA, '10.0.0.7:8080')).toEqual(await json(AASA));
  });

  it('serves nothing on a registered domain that is not verified', async () => {
    expectError(await fetchFile(AASA, 'pending.acme.example'), 404, { code: 'DOMAIN_NOT_SERVED' });
    expectError(await fetchFile(ASSET_LINKS, 'pending.acme.example'), 404, { code: 'DOMAIN_NOT_SERVED' });
  });

  it('follows app and domain changes at once (the cache is dropped with the link cache)', async () => {
    const acmeFiles = await json(AASA, 'links.acme.example');
    const added = await createApp(acme, { platform: 'IOS', bundleId: 'com.acme.second', teamId: 'ACMETEAM01' });
    const after = await json(AASA, 'links.acme.example');
    expect(after.applinks.details).toHaveLength(acmeFiles.applinks.details.length + 1);
    expect(after.applinks.details.at(-1).appIDs).toEqual(['ACMETEAM01.com.acme.second']);
    expect((await json(AASA)).applinks.details.map((d: { paths: string[] }) => d.paths[0])).toContain(
      `/${added.path}/*`,
    );

    // Android certificates rotated through an update.
    const updated = await svc.service('PUT', `/mobile-apps/${apps.betaAndroid!.id}`, beta.apiKey, {
      sha256CertFingerprints: [FP[0]],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(await json(ASSET_LINKS, 'go.beta.example')).toEqual([assetLink(apps.betaAndroid!, [FP[0]])]);

    const domainId = await createDomain(beta, 'late.beta.example', 'PENDING');
    expect((await fetchFile(AASA, 'late.beta.example')).statusCode).toBe(404);
    expect((await svc.admin('PUT', `/custom-domains/${domainId}/status`, { status: 'VERIFIED' })).statusCode).toBe(200);
    expect((await json(AASA, 'late.beta.example')).applinks.details[0].appIDs).toEqual(['BETATEAM02.io.beta.app']);
    expect((await svc.admin('PUT', `/custom-domains/${domainId}/status`, { status: 'REVOKED' })).statusCode).toBe(200);
    expect((await fetchFile(AASA, 'late.beta.example')).statusCode).toBe(404);
  });
});
