// Wires the statistics services: link clicks and revenue, app installs, the user journey.
import { createInstallStatsService } from '../core/stats/install-stats.js';
import { createJourneyStatsService } from '../core/stats/journey-stats.js';
import { createDashboards } from '../core/stats/dashboards.js';
import { createLinkSharesService } from '../core/stats/link-shares.js';
import { createLinkStatsService } from '../core/stats/link-stats.js';
import type { StatsService } from '../core/stats/index.js';
import { createClickDashboard } from '../olap/click-dashboard.queries.js';
import { createClickStats } from '../olap/click-stats.queries.js';
import { createDeferredMatchStats } from '../olap/deferred-match-stats.queries.js';
import { createInstallStats } from '../olap/install-stats.queries.js';
import { createJourneyStats } from '../olap/journey-stats.queries.js';
import { createRevenueStats } from '../olap/revenue-stats.queries.js';
import { createLinkSharesRepo } from '../oltp/link-shares.repo.js';
import type { GeoFields } from '../core/routing/geo-conditions.js';
import type { Config } from '../shared/config.js';
import type { Wiring } from './wiring.js';

export function composeStats({
  config,
  sql,
  clickhouse,
  clickCounts,
  repos,
  clock,
  geoFields,
}: Pick<Wiring, 'sql' | 'clickhouse' | 'clickCounts' | 'repos' | 'clock'> & {
  config: Pick<Config, 'server'>;
  /** What the GeoIP database knows beyond the country (region and city breakdowns and filters). */
  geoFields: GeoFields;
}): StatsService {
  const { shortUrls, campaigns } = repos;
  const revenueStats = createRevenueStats(clickhouse);
  const links = createLinkStatsService({
    shortUrls,
    campaigns,
    clickStats: createClickStats(clickhouse),
    clickCounts,
    revenueStats,
    geoFields,
    clock,
  });
  return {
    links,
    shares: createLinkSharesService({
      shares: createLinkSharesRepo({ sql }),
      shortUrls,
      organizations: repos.organizations,
      linkStats: links,
      clock,
    }),
    installs: createInstallStatsService({
      shortUrls,
      campaigns,
      mobileApps: repos.mobileApps,
      installStats: createInstallStats(clickhouse),
      revenueStats,
      deferredMatchStats: createDeferredMatchStats(clickhouse),
      clock,
    }),
    journey: createJourneyStatsService({ stats: createJourneyStats(clickhouse), clock }),
    dashboards: createDashboards({
      clicks: createClickDashboard(clickhouse),
      shortUrls,
      campaigns,
      publicBaseUrl: config.server.publicBaseUrl,
      geoFields,
      clock,
    }),
  };
}
