// The link behind a token or a code, as the SDK flows see it: the organization's short URL or
// campaign, looked up by id or by its code (optionally under one of its apps' path), its
// deep-link path for a platform, and the small references the answers carry.
import type { Campaign, CampaignsRepo } from '../../oltp/campaigns.repo.js';
import type { DeepLinkRecordsRepo, LinkRef } from '../../oltp/deep-link-records.repo.js';
import type { MobileAppsRepo } from '../../oltp/mobile-apps.repo.js';
import type { ShortUrl, ShortUrlsRepo } from '../../oltp/short-urls.repo.js';

export type TargetLink = { linkType: 'url'; url: ShortUrl } | { linkType: 'campaign'; campaign: Campaign };
export type LinkType = TargetLink['linkType'];

const fields = (link: TargetLink) => (link.linkType === 'url' ? link.url : link.campaign);

const linkId = (link: TargetLink) => fields(link).id;
export const originalUrlOf = (link: TargetLink) => fields(link).originalUrl;
export const goalTypeOf = (link: TargetLink) => fields(link).goalType;
const expiresAtOf = (link: TargetLink) => fields(link).expiresAt;
export const isExpired = (link: TargetLink, now = Date.now()) => {
  const expiresAt = expiresAtOf(link);
  return expiresAt !== null && expiresAt.getTime() <= now;
};
/** The link's kind and id, as the deep-link events carry them. */
export const linkKeys = (link: TargetLink) => ({ linkType: link.linkType, linkId: linkId(link) });

export function deepLinkPathOf(link: TargetLink, platform: 'IOS' | 'ANDROID'): string | null {
  const f = fields(link);
  return platform === 'IOS' ? f.iosDeepLinkPath : f.androidDeepLinkPath;
}

/** `{id, alias}` of either kind: a campaign's alias is its code as a short URL's code is. */
export const linkRef = (link: TargetLink) =>
  link.linkType === 'url'
    ? { id: link.url.id, alias: link.url.shortCode }
    : { id: link.campaign.id, alias: link.campaign.alias };
export const urlRef = (link: TargetLink) =>
  link.linkType === 'url' ? { id: link.url.id, alias: link.url.shortCode } : null;
export const campaignRef = (link: TargetLink) =>
  link.linkType === 'campaign' ? { id: link.campaign.id, name: link.campaign.name, alias: link.campaign.alias } : null;

export function createLinkTargets(deps: {
  shortUrls: Pick<ShortUrlsRepo, 'get'>;
  campaigns: Pick<CampaignsRepo, 'get'>;
  mobileApps: Pick<MobileAppsRepo, 'getMany'>;
  records: Pick<DeepLinkRecordsRepo, 'findLinkByCode'>;
}) {
  async function load(organizationId: number, ref: LinkRef): Promise<TargetLink | undefined> {
    if (ref.linkType === 'url') {
      const url = await deps.shortUrls.get(organizationId, ref.id);
      return url && { linkType: 'url', url };
    }
    const campaign = await deps.campaigns.get(organizationId, ref.id);
    return campaign && { linkType: 'campaign', campaign };
  }

  return {
    load,
    /** The organization's short URL (short code) or campaign (alias), if there is one. */
    async byCode(organizationId: number, code: string, linkType: LinkType): Promise<TargetLink | undefined> {
      const ref = await deps.records.findLinkByCode(organizationId, code, linkType);
      return ref && (await load(organizationId, ref));
    },
    /** Whether one of the link's apps has this path (the address /{appPath}/{code}). */
    async servesAppPath(organizationId: number, link: TargetLink, appPath: string): Promise<boolean> {
      const f = fields(link);
      const apps = await deps.mobileApps.getMany(
        organizationId,
        [f.iosAppId, f.androidAppId].filter((id): id is number => id !== null),
      );
      return [...apps.values()].some((a) => a.path === appPath);
    },
  };
}

export type LinkTargets = ReturnType<typeof createLinkTargets>;
