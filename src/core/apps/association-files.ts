// apple-app-site-association and assetlinks.json for one host, built from the registered apps
// and held briefly in process (a short TTL, and dropped whenever links or domains change).
//   Platform host: every iOS app with a team id claims `/{appPath}/*`, its own URL namespace (the
//     bare `/{code}` namespace is shared by all organizations, so no app may claim it); every
//     Android app with signing certificates is listed.
//   Custom domain (VERIFIED or ACTIVE): its organization's apps only, iOS claiming `/{appPath}/*`
//     and `/*` (the whole domain is the organization's).
//   A registered domain that is not usable serves neither file.
import type { AppAssociationsRepo, AssociatedApp } from '../../oltp/app-associations.repo.js';

export interface AssociationFiles {
  /** Serialised JSON, ready to send. */
  appleAppSiteAssociation: string;
  assetLinks: string;
}

export interface WellKnownFiles {
  /** The files for this host; undefined for a registered domain that serves no links. */
  forHost(hostname: string): Promise<AssociationFiles | undefined>;
  invalidate(): void;
}

type Scope = { kind: 'platform' } | { kind: 'domain'; organizationId: number } | { kind: 'unusable' };

function appleAppSiteAssociation(apps: AssociatedApp[], scope: 'platform' | 'domain') {
  const details = apps
    .filter((a) => a.platform === 'IOS' && a.teamId)
    .map((a) => {
      const paths = scope === 'platform' ? [`/${a.path}/*`] : [`/${a.path}/*`, '/*'];
      return { appIDs: [`${a.teamId}.${a.bundleId}`], components: paths.map((p) => ({ '/': p })), paths };
    });
  // `apps` must be present and empty for iOS versions before 13.
  return { applinks: { apps: [] as string[], details } };
}

function assetLinks(apps: AssociatedApp[]) {
  return apps
    .filter((a) => a.platform === 'ANDROID' && a.sha256CertFingerprints.length > 0)
    .map((a) => ({
      relation: ['delegate_permission/common.handle_all_urls'],
      target: {
        namespace: 'android_app',
        package_name: a.bundleId,
        sha256_cert_fingerprints: a.sha256CertFingerprints,
      },
    }));
}

/** Distinct hosts remembered at most (any Host header can arrive); beyond it the map starts over. */
const MAX_HOSTS = 10_000;

export function createWellKnownFiles(options: {
  repo: AppAssociationsRepo;
  ttlMs: number;
  now?: () => number;
}): WellKnownFiles {
  const now = options.now ?? Date.now;
  const scopes = new Map<string, { expiresAt: number; value: Promise<Scope> }>();
  const files = new Map<string, { expiresAt: number; value: Promise<AssociationFiles> }>();

  /** A promise held for the TTL, forgotten at once if it fails (PostgreSQL down: retry next time). */
  function cached<T>(
    map: Map<string, { expiresAt: number; value: Promise<T> }>,
    key: string,
    load: () => Promise<T>,
  ): Promise<T> {
    const hit = map.get(key);
    if (hit && hit.expiresAt > now()) return hit.value;
    if (map.size >= MAX_HOSTS) map.clear();
    const value = load();
    const entry = { expiresAt: now() + options.ttlMs, value };
    map.set(key, entry);
    value.catch(() => {
      if (map.get(key) === entry) map.delete(key);
    });
    return value;
  }

  async function scopeOf(host: string): Promise<Scope> {
    const domain = await options.repo.domainOfHost(host);
    if (!domain) return { kind: 'platform' };
    return domain.status === 'VERIFIED' || domain.status === 'ACTIVE'
      ? { kind: 'domain', organizationId: domain.organizationId }
      : { kind: 'unusable' };
  }

  async function build(organizationId: number | null): Promise<AssociationFiles> {
    const apps = await options.repo.linkableApps(organizationId);
    return {
      appleAppSiteAssociation: JSON.stringify(
        appleAppSiteAssociation(apps, organizationId === null ? 'platform' : 'domain'),
      ),
      assetLinks: JSON.stringify(assetLinks(apps)),
    };
  }

  return {
    async forHost(hostname) {
      const host = hostname.toLowerCase();
      const scope = await cached(scopes, host, () => scopeOf(host));
      if (scope.kind === 'unusable') return undefined;
      const organizationId = scope.kind === 'domain' ? scope.organizationId : null;
      return cached(files, organizationId === null ? 'platform' : `org:${organizationId}`, () => build(organizationId));
    },
    invalidate() {
      scopes.clear();
      files.clear();
    },
  };
}
