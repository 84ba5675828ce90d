// Wiring of the links feature: short URLs and campaigns over their repositories, the click
// counts, the event publisher and the link caches' invalidation.
import type { Config } from '../shared/config.js';
import type { EventPublisher } from '../ingest/publisher.js';
import type { ClickCounts } from '../olap/click-counts.js';
import type { CampaignsRepo } from '../oltp/campaigns.repo.js';
import type { CustomDomainsRepo } from '../oltp/custom-domains.repo.js';
import type { MobileAppsRepo } from '../oltp/mobile-apps.repo.js';
import type { ShortUrlsRepo } from '../oltp/short-urls.repo.js';
import { createLinksService, type LinksService } from '../core/links/links-service.js';

export function composeLinks(ctx: {
  config: Pick<Config, 'publicBaseUrl'>;
  repos: { shortUrls: ShortUrlsRepo; campaigns: CampaignsRepo; mobileApps: MobileAppsRepo; customDomains: CustomDomainsRepo };
  clickCounts: ClickCounts;
  events: EventPublisher;
  linkChanged(organizationId: number): void;
}): LinksService {
  return createLinksService({
    repos: ctx.repos,
    clickCounts: ctx.clickCounts,
    events: ctx.events,
    publicBaseUrl: ctx.config.publicBaseUrl,
    linkChanged: ctx.linkChanged,
  });
}
