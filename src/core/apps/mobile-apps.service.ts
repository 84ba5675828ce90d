// Mobile apps of an organization: registering one generates its URL namespace (path) and its
// mobile SDK key; its deep-link settings feed the redirect and the association files. Identity
// verification (an extension) issues the secret that signs member ids for browser identify and
// opt-in calls; the secret is handed out once, when issued.
import { conflict, notFound } from '../../shared/errors.js';
import { invalidBodyField } from '../field-error.js';
import { authorize } from '../accounts/permissions.js';
import type { OrganizationCaller } from '../caller.js';
import type { MobileApp, MobileAppsRepo, Platform } from '../../oltp/mobile-apps.repo.js';

export type { MobileApp, Platform } from '../../oltp/mobile-apps.repo.js';

/** Settings of a new app; absent optional fields are empty. */
export interface NewMobileApp {
  platform: Platform;
  appName: string;
  bundleId: string;
  teamId?: string | null | undefined;
  scheme?: string | null | undefined;
  storeUrl?: string | null | undefined;
  appIconUrl?: string | null | undefined;
  sha256CertFingerprints?: string[] | undefined;
  deepLinkTokenTtlSeconds?: number | undefined;
  clipboardMatch?: boolean | undefined;
}

/** A change: undefined leaves a field as it is, null clears it. */
export type MobileAppChange = Partial<NewMobileApp>;

/** The platform-bound fields must fit the platform (after a change of either). */
function checkPlatformFields(
  platform: Platform,
  teamId: string | null | undefined,
  fingerprints: string[] | undefined,
) {
  if (platform === 'ANDROID' && teamId) throw invalidBodyField('teamId', 'applies to iOS apps only');
  if (platform === 'IOS' && fingerprints && fingerprints.length > 0) {
    throw invalidBodyField('sha256CertFingerprints', 'applies to Android apps only');
  }
}

const missing = (id: number) => notFound('MOBILE_APP_NOT_FOUND', `mobile app ${id} does not exist`);

export function createMobileAppsService(deps: {
  repo: Pick<
    MobileAppsRepo,
    | 'create'
    | 'list'
    | 'get'
    | 'update'
    | 'isLinked'
    | 'regenerateApiKey'
    | 'issueIdentitySecret'
    | 'clearIdentitySecret'
    | 'delete'
  >;
  /** Apps feed the redirect and the association files: called after every successful change. */
  linkChanged(organizationId: number): void;
}) {
  const { repo, linkChanged } = deps;

  async function get(caller: OrganizationCaller, id: number): Promise<MobileApp> {
    const found = await repo.get(caller.organization.id, id);
    if (!found) throw missing(id);
    return found;
  }

  return {
    async create(caller: OrganizationCaller, input: NewMobileApp): Promise<MobileApp> {
      authorize(caller, 'apps.write');
      const orgId = caller.organization.id;
      checkPlatformFields(input.platform, input.teamId, input.sha256CertFingerprints);
      const created = await repo.create(orgId, {
        platform: input.platform,
        appName: input.appName,
        bundleId: input.bundleId,
        teamId: input.platform === 'IOS' ? (input.teamId ?? null) : null,
        scheme: input.scheme ?? null,
        storeUrl: input.storeUrl ?? null,
        appIconUrl: input.appIconUrl ?? null,
        sha256CertFingerprints: input.sha256CertFingerprints ?? [],
        deepLinkTokenTtlSeconds: input.deepLinkTokenTtlSeconds,
        clipboardMatch: input.clipboardMatch,
      });
      linkChanged(orgId);
      return created;
    },

    list: (caller: OrganizationCaller, query: { page: number; size: number; search?: string | undefined }) =>
      repo.list(caller.organization.id, query),

    get,

    /** A new platform is refused while links or campaigns use the app; platform-bound fields follow the platform. */
    async update(caller: OrganizationCaller, id: number, change: MobileAppChange): Promise<MobileApp> {
      authorize(caller, 'apps.write');
      const orgId = caller.organization.id;
      const current = await get(caller, id);
      const platform = change.platform ?? current.platform;
      if (platform !== current.platform && (await repo.isLinked(orgId, current.id))) {
        throw conflict('APP_IN_USE', 'links or campaigns use this app; unlink them before changing its platform');
      }
      const teamId = change.teamId === undefined ? (platform === 'IOS' ? current.teamId : null) : change.teamId;
      const fingerprints =
        change.sha256CertFingerprints ?? (platform === 'ANDROID' ? current.sha256CertFingerprints : []);
      checkPlatformFields(platform, teamId, fingerprints);
      const updated = await repo.update(orgId, current.id, {
        ...change,
        platform,
        teamId: platform === 'IOS' ? teamId : null,
        sha256CertFingerprints: fingerprints,
      });
      if (!updated) throw missing(id);
      linkChanged(orgId);
      return updated;
    },

    /** A new mobile SDK key: apps still sending the old one are refused (401) from their next call. */
    async regenerateApiKey(caller: OrganizationCaller, id: number): Promise<MobileApp> {
      authorize(caller, 'apps.write');
      const updated = await repo.regenerateApiKey(caller.organization.id, id);
      if (!updated) throw missing(id);
      return updated;
    },

    /** Turns identity verification on, or rotates its secret; the secret is in this answer only. */
    async issueIdentitySecret(caller: OrganizationCaller, id: number): Promise<{ app: MobileApp; secret: string }> {
      authorize(caller, 'apps.write');
      const issued = await repo.issueIdentitySecret(caller.organization.id, id);
      if (!issued) throw missing(id);
      linkChanged(caller.organization.id);
      return issued;
    },

    /** Turns identity verification off and forgets its secret. */
    async clearIdentitySecret(caller: OrganizationCaller, id: number): Promise<void> {
      authorize(caller, 'apps.write');
      if (!(await repo.clearIdentitySecret(caller.organization.id, id))) throw missing(id);
      linkChanged(caller.organization.id);
    },

    /** Links that pointed at the app keep working without it. */
    async remove(caller: OrganizationCaller, id: number): Promise<void> {
      authorize(caller, 'apps.write');
      if (!(await repo.delete(caller.organization.id, id))) throw missing(id);
      linkChanged(caller.organization.id);
    },
  };
}

export type MobileAppsService = ReturnType<typeof createMobileAppsService>;
