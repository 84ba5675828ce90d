// The apps and domains services tell the link caches themselves after every successful change (and
// only then), and keep their rules without HTTP around them.
import { describe, expect, it } from 'vitest';
import { createMobileAppsService, type MobileApp } from '../../src/core/apps/mobile-apps.service.js';
import { createDomainsService, type CustomDomain } from '../../src/core/domains/domains.service.js';

const caller = { organization: { id: 7 } };

function app(fields: Partial<MobileApp> = {}): MobileApp {
  return {
    id: 1,
    organizationId: 7,
    platform: 'IOS',
    appName: 'Shop',
    bundleId: 'com.example.shop',
    teamId: 'ABCDE12345',
    scheme: null,
    storeUrl: null,
    appIconUrl: null,
    path: 'shop-x7k2',
    apiKey: 'spm_x',
    sha256CertFingerprints: [],
    deepLinkTokenTtlSeconds: 7200,
    clipboardMatch: false,
    identitySecretIssuedAt: null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...fields,
  };
}

function appsService(options: { linked?: boolean } = {}) {
  const changed: number[] = [];
  const apps = new Map<number, MobileApp>([[1, app()]]);
  const service = createMobileAppsService({
    repo: {
      create: async (_org, input) =>
        app({
          ...input,
          id: 2,
          deepLinkTokenTtlSeconds: input.deepLinkTokenTtlSeconds ?? 7200,
          clipboardMatch: input.clipboardMatch ?? false,
        }),
      list: async () => ({ items: [...apps.values()], total: apps.size }),
      get: async (_org, id) => apps.get(id),
      update: async (_org, id, patch) =>
        apps.has(id) ? app({ ...apps.get(id), ...patch } as Partial<MobileApp>) : undefined,
      isLinked: async () => options.linked ?? false,
      regenerateApiKey: async (_org, id) => (apps.has(id) ? app({ ...apps.get(id), apiKey: 'spm_y' }) : undefined),
      issueIdentitySecret: async (_org, id) => (apps.has(id) ? { app: apps.get(id)!, secret: 'spi_s' } : undefined),
      clearIdentitySecret: async (_org, id) => apps.get(id),
      delete: async (_org, id) => apps.delete(id),
    },
    linkChanged: (org) => changed.push(org),
  });
  return { service, changed };
}

describe('mobile apps service', () => {
  it('tells the link caches after each change, never after a read or a refusal', async () => {
    const { service, changed } = appsService();
    await service.create(caller, { platform: 'ANDROID', appName: 'A', bundleId: 'com.example.a' });
    await service.update(caller, 1, { appName: 'B' });
    await service.issueIdentitySecret(caller, 1);
    await service.clearIdentitySecret(caller, 1);
    await service.get(caller, 1);
    await service.list(caller, { page: 0, size: 10 });
    await service.remove(caller, 1);
    expect(changed).toEqual([7, 7, 7, 7, 7]);
    await expect(service.remove(caller, 1)).rejects.toMatchObject({ kind: 'not_found', code: 'MOBILE_APP_NOT_FOUND' });
    await expect(
      service.create(caller, { platform: 'ANDROID', appName: 'A', bundleId: 'com.example.a', teamId: 'ABCDE12345' }),
    ).rejects.toMatchObject({ kind: 'invalid', code: 'VALIDATION_FAILED' });
    expect(changed).toHaveLength(5);
  });

  it('refuses a new platform while links use the app, and drops the team id for Android', async () => {
    await expect(
      appsService({ linked: true }).service.update(caller, 1, { platform: 'ANDROID' }),
    ).rejects.toMatchObject({ kind: 'conflict', code: 'APP_IN_USE' });
    const updated = await appsService().service.update(caller, 1, { platform: 'ANDROID' });
    expect(updated.teamId).toBeNull();
  });
});

function domain(fields: Partial<CustomDomain> = {}): CustomDomain {
  return {
    id: 1,
    organizationId: 7,
    organizationName: 'Org',
    ownerUsername: 'Org',
    domainName: 'go.brand.example',
    status: 'PENDING',
    cnameRecordName: 'go.brand.example',
    cnameRecordValue: 'cname.sgnp.example',
    createdAt: new Date(0),
    deletionRequested: false,
    deletionRequestedAt: null,
    fallbackUrl: null,
    ...fields,
  };
}

function domainsService() {
  const changed: (number | null)[] = [];
  const checked: number[] = [];
  const taken = new Set<string>();
  const service = createDomainsService({
    repo: {
      create: async (input) => {
        if (taken.has(input.domainName)) return undefined;
        taken.add(input.domainName);
        return domain({ ...input, id: 2 });
      },
      getForOrganization: async (org, id) => (org === 7 && id === 1 ? domain() : undefined),
      list: async () => ({ items: [domain()], total: 1 }),
      listUsable: async () => [],
      setStatus: async (id, status) => (id === 1 ? domain({ status }) : undefined),
      get: async (id) => (id === 1 ? domain() : undefined),
      setDeletionRequested: async (org, id, requested) =>
        org === 7 && id === 1 ? domain({ deletionRequested: requested }) : undefined,
      delete: async (id) => (id === 1 ? { deleted: true as const } : undefined),
      setFallbackUrl: async (id, fallbackUrl) => (id === 1 ? domain({ fallbackUrl }) : undefined),
    },
    organizationExists: async (id) => id === 7,
    verifier: {
      start() {},
      stop: async () => {},
      checkNow: async (id) => void checked.push(id),
      runOnce: async () => 0,
    },
    platformHost: 'sgnp.example',
    cnameTarget: 'cname.sgnp.example',
    linkChanged: (org) => changed.push(org),
  });
  return { service, changed, checked };
}

describe('domains service', () => {
  it('registers with a CNAME to create, none for platform subdomains, and refuses the platform host and taken names', async () => {
    const { service, changed } = domainsService();
    expect(await service.register(7, 'links.shop.example')).toMatchObject({
      cnameRecordName: 'links.shop.example',
      cnameRecordValue: 'cname.sgnp.example',
    });
    expect(await service.register(7, 'brand.sgnp.example')).toMatchObject({
      cnameRecordName: null,
      cnameRecordValue: null,
    });
    await expect(service.register(7, 'sgnp.example')).rejects.toMatchObject({ kind: 'conflict', code: 'DOMAIN_TAKEN' });
    await expect(service.register(7, 'links.shop.example')).rejects.toMatchObject({
      kind: 'conflict',
      code: 'DOMAIN_TAKEN',
    });
    await expect(service.register(8, 'other.example')).rejects.toMatchObject({
      kind: 'not_found',
      code: 'ORGANIZATION_NOT_FOUND',
    });
    expect(changed).toEqual([null, null]);
  });

  it("tells every link cache after a status override, and finds only the caller organization's domains", async () => {
    const { service, changed, checked } = domainsService();
    expect((await service.setStatus(1, 'ACTIVE')).status).toBe('ACTIVE');
    await expect(service.setStatus(9, 'ACTIVE')).rejects.toMatchObject({
      kind: 'not_found',
      code: 'CUSTOM_DOMAIN_NOT_FOUND',
    });
    expect(changed).toEqual([null]);
    await expect(service.get({ organization: { id: 8 } }, 1)).rejects.toMatchObject({
      code: 'CUSTOM_DOMAIN_NOT_FOUND',
    });
    await expect(service.verifyNow({ organization: { id: 8 } }, 1)).rejects.toMatchObject({
      code: 'CUSTOM_DOMAIN_NOT_FOUND',
    });
    await service.verifyNow(caller, 1);
    expect(checked).toEqual([1]);
  });
});
