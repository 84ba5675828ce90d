// Wires the statistics services: link clicks and revenue, app installs, the user journey.
import { createInstallStatsService } from '../core/stats/install-stats.js';
import { createJourneyStatsService } from '../core/stats/journey-stats.js';
import { createLinkStatsService } from '../core/stats/link-stats.js';
import type { StatsService } from '../core/stats/stats-service.js';
import type { ClickCounts } from '../olap/click-counts.js';
import { createClickStats } from '../olap/click-stats.js';
import type { ClickHouseClient } from '../olap/clickhouse.js';
import { createInstallStats } from '../olap/install-stats.js';
import { createJourneyStats } from '../olap/journey-stats.js';
import { createRevenueStats } from '../olap/revenue-stats.js';
import type { CampaignsRepo } from '../oltp/campaigns.repo.js';
import type { MobileAppsRepo } from '../oltp/mobile-apps.repo.js';
import type { ShortUrlsRepo } from '../oltp/short-urls.repo.js';

export function composeStats(ctx: {
  clickhouse: ClickHouseClient;
  clickCounts: ClickCounts;
  shortUrls: ShortUrlsRepo;
  campaigns: CampaignsRepo;
  mobileApps: MobileAppsRepo;
  clock: () => Date;
}): StatsService {
  const { clickhouse, clock } = ctx;
  return {
    links: createLinkStatsService({
      shortUrls: ctx.shortUrls,
      campaigns: ctx.campaigns,
      clickStats: createClickStats(clickhouse),
      clickCounts: ctx.clickCounts,
      revenueStats: createRevenueStats(clickhouse),
      clock,
    }),
    installs: createInstallStatsService({
      shortUrls: ctx.shortUrls,
      campaigns: ctx.campaigns,
      mobileApps: ctx.mobileApps,
      installStats: createInstallStats(clickhouse),
      clock,
    }),
    journey: createJourneyStatsService({ stats: createJourneyStats(clickhouse), clock }),
  };
}
