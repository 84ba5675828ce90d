// Wires mobile apps: their service, and the briefly cached association files built from them
// (dropped whenever this or another instance says links, apps or domains changed: link-changes.ts).
import { createWellKnownFiles, type WellKnownFiles } from '../core/apps/association-files.js';
import type { AppsService } from '../core/apps/index.js';
import { createMobileAppsService } from '../core/apps/mobile-apps.service.js';
import { createAppAssociationsRepo } from '../oltp/app-associations.repo.js';
import type { Sql } from '../oltp/postgres.js';
import type { Wiring } from './wiring.js';

/** The association-file cache. */
export const composeAssociationFiles = ({ sql }: { sql: Sql }): WellKnownFiles =>
  createWellKnownFiles({ repo: createAppAssociationsRepo({ sql }), ttlMs: 60_000 });

export function composeApps(
  ctx: Pick<Wiring, 'repos' | 'linkChanged'> & { associationFiles: WellKnownFiles },
): AppsService {
  return {
    mobileApps: createMobileAppsService({ repo: ctx.repos.mobileApps, linkChanged: ctx.linkChanged }),
    associationFiles: ctx.associationFiles,
  };
}
