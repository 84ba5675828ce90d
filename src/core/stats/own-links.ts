// The short URL or campaign a statistic is asked for: the caller's organization's, else it does not
// exist (another organization's link is a 404 like a missing one, never a 403).
import { notFound } from '../../shared/errors.js';
import type { Campaign, CampaignsRepo } from '../../oltp/campaigns.repo.js';
import type { ShortUrl, ShortUrlsRepo } from '../../oltp/short-urls.repo.js';

/** The repositories a link's statistics find their link in. */
export interface StatsLinks {
  shortUrls: Pick<ShortUrlsRepo, 'get'>;
  campaigns: Pick<CampaignsRepo, 'get'>;
}

async function found<L>(link: Promise<L | undefined>, type: 'url' | 'campaign', id: number): Promise<L> {
  const l = await link;
  if (l) return l;
  throw type === 'url'
    ? notFound('SHORT_URL_NOT_FOUND', `short URL ${id} does not exist`)
    : notFound('CAMPAIGN_NOT_FOUND', `campaign ${id} does not exist`);
}

export const ownShortUrl = (
  links: Pick<StatsLinks, 'shortUrls'>,
  organizationId: number,
  id: number,
): Promise<ShortUrl> => found(links.shortUrls.get(organizationId, id), 'url', id);

export const ownCampaign = (
  links: Pick<StatsLinks, 'campaigns'>,
  organizationId: number,
  id: number,
): Promise<Campaign> => found(links.campaigns.get(organizationId, id), 'campaign', id);
