// What the well-known association files need: which organization a host belongs to, and the apps
// that can claim links (iOS with a team id, Android with signing certificates). Reads across
// organizations on purpose: the platform host's files list every organization's apps, each under
// its own URL namespace; a custom domain's list only its owner's.
import type { DomainStatus } from './custom-domains.repo.js';
import type { Platform } from './mobile-apps.repo.js';
import type { Sql } from './postgres.js';

export interface AssociatedApp {
  platform: Platform;
  bundleId: string;
  teamId: string | null;
  path: string;
  sha256CertFingerprints: string[];
}

interface Row {
  platform: Platform;
  bundle_id: string;
  team_id: string | null;
  path: string;
  sha256_cert_fingerprints: string[];
}

export function createAppAssociationsRepo({ sql }: { sql: Sql }) {
  return {
    /** The custom domain registered under this host, if any (any status). */
    async domainOfHost(host: string): Promise<{ organizationId: number; status: DomainStatus } | undefined> {
      const [row] = await sql<{ organization_id: number; status: DomainStatus }[]>`
        select organization_id, status from custom_domains where lower(domain_name) = ${host.toLowerCase()}`;
      return row && { organizationId: row.organization_id, status: row.status };
    },

    /** Apps able to claim links, oldest first; one organization's, or (null) everyone's. */
    async linkableApps(organizationId: number | null): Promise<AssociatedApp[]> {
      const rows = await sql<Row[]>`
        select platform, bundle_id, team_id, path, sha256_cert_fingerprints from mobile_apps
        where ((platform = 'IOS' and team_id is not null) or (platform = 'ANDROID' and cardinality(sha256_cert_fingerprints) > 0))
          ${organizationId === null ? sql`` : sql`and organization_id = ${organizationId}`}
        order by id`;
      return rows.map((r) => ({
        platform: r.platform,
        bundleId: r.bundle_id,
        teamId: r.team_id,
        path: r.path,
        sha256CertFingerprints: r.sha256_cert_fingerprints,
      }));
    },
  };
}

export type AppAssociationsRepo = ReturnType<typeof createAppAssociationsRepo>;
