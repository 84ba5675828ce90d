// Checks shared by short URLs and campaigns: linked apps must be the organization's apps of the
// right platform, a custom domain must be the organization's and VERIFIED or ACTIVE.
import { invalidBodyField } from '../field-error.js';
import type { CustomDomainsRepo } from '../../oltp/custom-domains.repo.js';
import type { MobileAppsRepo } from '../../oltp/mobile-apps.repo.js';

export interface LinkedAppIds {
  iosAppId?: number | null | undefined;
  androidAppId?: number | null | undefined;
}

export function createLinkTargets(repos: { mobileApps: MobileAppsRepo; customDomains: CustomDomainsRepo }) {
  return {
    async checkLinkedApps(organizationId: number, apps: LinkedAppIds): Promise<void> {
      const wanted = [
        ['iosAppId', apps.iosAppId, 'IOS'],
        ['androidAppId', apps.androidAppId, 'ANDROID'],
      ] as const;
      const ids = wanted.map(([, id]) => id).filter((id): id is number => typeof id === 'number');
      const found = await repos.mobileApps.getMany(organizationId, ids);
      for (const [field, id, platform] of wanted) {
        if (typeof id !== 'number') continue;
        const app = found.get(id);
        if (!app) throw invalidBodyField(field, `no mobile app ${id} in this organization`, 'APP_NOT_FOUND');
        if (app.platform !== platform) {
          throw invalidBodyField(field, `mobile app ${id} is an ${app.platform} app`, 'APP_PLATFORM_MISMATCH');
        }
      }
    },

    async usableCustomDomain(
      organizationId: number,
      domainName: string | null | undefined,
    ): Promise<{ id: number; name: string } | null> {
      if (!domainName) return null;
      const domain = await repos.customDomains.findUsableByName(organizationId, domainName);
      if (!domain) {
        throw invalidBodyField(
          'customDomainName',
          `${domainName} is not a verified domain of this organization`,
          'CUSTOM_DOMAIN_NOT_USABLE',
        );
      }
      return { id: domain.id, name: domain.domainName };
    },
  };
}

export type LinkTargets = ReturnType<typeof createLinkTargets>;
