// The links feature as the API sees it: short URLs and campaigns of the caller's organization.
import type { EventPublisher } from '../../ingest/publisher.js';
import type { CampaignsRepo } from '../../oltp/campaigns.repo.js';
import type { CustomDomainsRepo } from '../../oltp/custom-domains.repo.js';
import type { MobileAppsRepo } from '../../oltp/mobile-apps.repo.js';
import type { ShortUrlsRepo } from '../../oltp/short-urls.repo.js';
import type { TagsRepo } from '../../oltp/tags.repo.js';
import type { ClickCounts } from '../../olap/click-counts.queries.js';
import { createCampaignService } from './campaigns.js';
import { createLinkTargets } from './link-targets.js';
import { createShortUrlService } from './short-urls.js';
import { createTagsService } from './tags.service.js';
import { createIdempotencyService } from './idempotency.service.js';
import type { IdempotentRequestsRepo } from '../../oltp/idempotent-requests.repo.js';
import type { GeoFields } from '../routing/geo-conditions.js';

export function createLinksService(deps: {
  repos: {
    shortUrls: ShortUrlsRepo;
    campaigns: CampaignsRepo;
    mobileApps: MobileAppsRepo;
    customDomains: CustomDomainsRepo;
    tags: TagsRepo;
    idempotentRequests: IdempotentRequestsRepo;
  };
  clickCounts: ClickCounts;
  events: EventPublisher;
  publicBaseUrl: string;
  linkChanged(organizationId: number): void;
  /** What the geo database knows beyond the country (rules naming regions or cities need it). */
  geoFields: GeoFields;
}) {
  const tags = createTagsService({ repo: deps.repos.tags, linkChanged: deps.linkChanged });
  const shared = {
    tags,
    clickCounts: deps.clickCounts,
    targets: createLinkTargets(deps.repos),
    linkChanged: deps.linkChanged,
    geoFields: deps.geoFields,
  };
  return {
    shortUrls: createShortUrlService({ ...shared, repo: deps.repos.shortUrls, publicBaseUrl: deps.publicBaseUrl }),
    campaigns: createCampaignService({ ...shared, repo: deps.repos.campaigns, events: deps.events }),
    tags,
    idempotency: createIdempotencyService({ repo: deps.repos.idempotentRequests }),
  };
}

export type LinksService = ReturnType<typeof createLinksService>;
