// Wires the statistics services: link clicks and revenue, app installs, the user journey.
import { createInstallStatsService } from '../core/stats/install-stats.js';
import { createJourneyStatsService } from '../core/stats/journey-stats.js';
import { createDashboards } from '../core/stats/dashboards.js';
import { createLinkSharesService } from '../core/stats/link-shares.js';
import { createLinkStatsService } from '../core/stats/link-stats.js';
import type { StatsService } from '../core/stats/index.js';
import { createTagStatsService, createTagSync, type TagStatsService, type TagSync } from '../core/stats/tag-stats.js';
import { createClickDashboard } from '../olap/click-dashboard.queries.js';
import { createClickStats } from '../olap/click-stats.queries.js';
import { createDeferredMatchStats } from '../olap/deferred-match-stats.queries.js';
import { createInstallStats } from '../olap/install-stats.queries.js';
import { createJourneyStats } from '../olap/journey-stats.queries.js';
import { createLinkTagsQueries } from '../olap/link-tags.queries.js';
import { createRevenueStats } from '../olap/revenue-stats.queries.js';
import { createLinkTagChangesRepo } from '../oltp/link-tag-changes.repo.js';
import { createTagsRepo } from '../oltp/tags.repo.js';
import { createLinkSharesRepo } from '../oltp/link-shares.repo.js';
import type { Config } from '../shared/config.js';
import type { Wiring } from './wiring.js';

/**
 * Statistics by tag and the copy of link tag changes to ClickHouse it reads (the container runs
 * the copy every few seconds on worker instances).
 */
export function composeTagStats({
  sql,
  clickhouse,
  clock,
  geoFields,
}: Pick<Wiring, 'sql' | 'clickhouse' | 'clock' | 'geoFields'>): {
  service: TagStatsService;
  sync: TagSync;
} {
  const linkTags = createLinkTagsQueries(clickhouse);
  const sync = createTagSync({ changes: createLinkTagChangesRepo({ sql }), linkTags });
  return { service: createTagStatsService({ tags: createTagsRepo({ sql }), sync, linkTags, clock, geoFields }), sync };
}

export function composeStats({
  config,
  sql,
  clickhouse,
  repos,
  clock,
  geoFields,
  tagStats,
}: Pick<Wiring, 'sql' | 'clickhouse' | 'repos' | 'clock' | 'geoFields'> & {
  config: Pick<Config, 'server'>;
  tagStats: TagStatsService;
}): StatsService {
  const { shortUrls, campaigns } = repos;
  const revenueStats = createRevenueStats(clickhouse);
  const links = createLinkStatsService({
    shortUrls,
    campaigns,
    clickStats: createClickStats(clickhouse),
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
    tags: tagStats,
    dashboards: createDashboards({
      clicks: createClickDashboard(clickhouse),
      shortUrls,
      campaigns,
      tagStats,
      publicBaseUrl: config.server.publicBaseUrl,
      geoFields,
      clock,
    }),
  };
}
