// The statistics a caller can ask for: clicks and revenue of a link (and its shared page), app installs of a link or app,
// the organization's user journey, and the console's click dashboards and clicks by tag.
import type { Dashboards } from './dashboards.js';
import type { InstallStatsService } from './install-stats.js';
import type { JourneyStatsService } from './journey-stats.js';
import type { LinkSharesService } from './link-shares.js';
import type { LinkStatsService } from './link-stats.js';
import type { TagStatsService } from './tag-stats.js';

export interface StatsService {
  links: LinkStatsService;
  /** Shared statistics of short URLs: an address anyone may open. */
  shares: LinkSharesService;
  installs: InstallStatsService;
  journey: JourneyStatsService;
  dashboards: Dashboards;
  /** Clicks by tag (the console's dashboards). */
  tags: TagStatsService;
}
