// What the composition root hands the feature wirings: configuration, stores, the event publisher,
// the repositories several features share and the clock. Each feature takes the part it uses
// (`Pick<Wiring, ...>`), so its signature says what it needs and nothing is built twice.
import type { GeoFields } from '../core/routing/geo-conditions.js';
import type { EventPublisher } from '../ingest/publisher.js';
import type { ClickCounts } from '../olap/click-counts.queries.js';
import type { ClickHouseClient } from '../olap/clickhouse.js';
import type { ApiKeysRepo } from '../oltp/api-keys.repo.js';
import type { CampaignsRepo } from '../oltp/campaigns.repo.js';
import type { CustomDomainsRepo } from '../oltp/custom-domains.repo.js';
import type { MobileAppsRepo } from '../oltp/mobile-apps.repo.js';
import type { OrganizationsRepo } from '../oltp/organizations.repo.js';
import type { Sql } from '../oltp/postgres.js';
import type { ShortUrlsRepo } from '../oltp/short-urls.repo.js';
import type { UsageMeter } from '../oltp/usage-meter.js';
import type { UsageRepo } from '../oltp/usage.repo.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import type { SecretBox } from '../shared/secret-box.js';

/** The repositories more than one feature reads. */
export interface SharedRepos {
  organizations: OrganizationsRepo;
  apiKeys: ApiKeysRepo;
  customDomains: CustomDomainsRepo;
  mobileApps: MobileAppsRepo;
  shortUrls: ShortUrlsRepo;
  campaigns: CampaignsRepo;
  usage: UsageRepo;
  usageMeter: UsageMeter;
}

export interface Wiring {
  config: Config;
  log: Logger;
  sql: Sql;
  clickhouse: ClickHouseClient;
  secretBox: SecretBox;
  events: EventPublisher;
  repos: SharedRepos;
  /** Click totals per link, cached (ClickHouse). */
  clickCounts: ClickCounts;
  clock: () => Date;
  /** What the geo database knows beyond the country: routing rules and statistics naming regions or cities need it. */
  geoFields: GeoFields;
  /** A link, app or domain changed: drop cached links (of one organization, or all) everywhere. */
  linkChanged(organizationId: number | null): void;
}
