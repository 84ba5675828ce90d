// The apps feature as its callers see it: an organization's mobile apps, and the association files
// (apple-app-site-association, assetlinks.json) built from every organization's apps.
import type { AssociationFiles } from './association-files.js';
import type { MobileAppsService } from './mobile-apps.service.js';

export interface AppsService {
  mobileApps: MobileAppsService;
  associationFiles: {
    /** The files for this host; undefined for a registered domain that serves no links. */
    forHost(hostname: string): Promise<AssociationFiles | undefined>;
  };
}
