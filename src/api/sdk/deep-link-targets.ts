// The link behind a token or a code, as the SDK APIs answer it: the short URL or campaign of the
// organization, its deep-link path for a platform, and the small objects the responses carry.
import { z } from 'zod';
import type { Campaign } from '../../oltp/campaigns.repo.js';
import type { ShortUrl } from '../../oltp/short-urls.repo.js';
import type { AppDeps } from '../deps.js';

export type TargetLink = { linkType: 'url'; url: ShortUrl } | { linkType: 'campaign'; campaign: Campaign };

export async function loadLink(deps: Pick<AppDeps, 'repos'>, organizationId: number, ref: { linkType: 'url' | 'campaign'; id: number }): Promise<TargetLink | undefined> {
  if (ref.linkType === 'url') {
    const url = await deps.repos.shortUrls.get(organizationId, ref.id);
    return url && { linkType: 'url', url };
  }
  const campaign = await deps.repos.campaigns.get(organizationId, ref.id);
  return campaign && { linkType: 'campaign', campaign };
}

const fields = (link: TargetLink) => (link.linkType === 'url' ? link.url : link.campaign);

export const linkId = (link: TargetLink) => fields(link).id;
export const originalUrlOf = (link: TargetLink) => fields(link).originalUrl;
export const goalTypeOf = (link: TargetLink) => fields(link).goalType;
export const expiresAtOf = (link: TargetLink) => fields(link).expiresAt;

export function deepLinkPathOf(link: TargetLink, platform: 'IOS' | 'ANDROID'): string | null {
  const f = fields(link);
  return platform === 'IOS' ? f.iosDeepLinkPath : f.androidDeepLinkPath;
}

export const urlRefSchema = z.object({ id: z.number().int(), alias: z.string().describe('the short code') });
export const campaignRefSchema = z.object({ id: z.number().int(), name: z.string(), alias: z.string() });

export const urlRef = (link: TargetLink) => (link.linkType === 'url' ? { id: link.url.id, alias: link.url.shortCode } : null);
export const campaignRef = (link: TargetLink) =>
  link.linkType === 'campaign' ? { id: link.campaign.id, name: link.campaign.name, alias: link.campaign.alias } : null;
