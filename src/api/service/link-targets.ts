// Checks shared by short URLs and campaigns: linked apps must be the organization's apps of the
// right platform, a custom domain must be the organization's and VERIFIED or ACTIVE.
import { invalid } from '../../shared/errors.js';
import type { AppDeps } from '../deps.js';

export async function checkLinkedApps(
  deps: Pick<AppDeps, 'repos'>,
  organizationId: number,
  apps: { iosAppId?: number | null | undefined; androidAppId?: number | null | undefined },
): Promise<void> {
  const wanted = [
    ['iosAppId', apps.iosAppId, 'IOS'],
    ['androidAppId', apps.androidAppId, 'ANDROID'],
  ] as const;
  const ids = wanted.map(([, id]) => id).filter((id): id is number => typeof id === 'number');
  const found = await deps.repos.mobileApps.getMany(organizationId, ids);
  for (const [field, id, platform] of wanted) {
    if (typeof id !== 'number') continue;
    const app = found.get(id);
    if (!app) throw invalid('APP_NOT_FOUND', `body.${field}: no mobile app ${id} in this organization`, { field });
    if (app.platform !== platform) {
      throw invalid('APP_PLATFORM_MISMATCH', `body.${field}: mobile app ${id} is an ${app.platform} app`, { field });
    }
  }
}

export async function usableCustomDomain(
  deps: Pick<AppDeps, 'repos'>,
  organizationId: number,
  domainName: string | null | undefined,
): Promise<{ id: number; name: string } | null> {
  if (!domainName) return null;
  const domain = await deps.repos.customDomains.findUsableByName(organizationId, domainName);
  if (!domain) {
    throw invalid('CUSTOM_DOMAIN_NOT_USABLE', `body.customDomainName: ${domainName} is not a verified domain of this organization`);
  }
  return { id: domain.id, name: domain.domainName };
}
