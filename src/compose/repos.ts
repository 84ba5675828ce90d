// The repositories more than one feature reads, built once over PostgreSQL, and the usage meter
// that counts Service API calls toward the quota (flushed every second).
import { createApiKeysRepo } from '../oltp/api-keys.repo.js';
import { createCampaignsRepo } from '../oltp/campaigns.repo.js';
import { createCustomDomainsRepo } from '../oltp/custom-domains.repo.js';
import { createMobileAppsRepo } from '../oltp/mobile-apps.repo.js';
import { createOrganizationsRepo } from '../oltp/organizations.repo.js';
import type { Sql } from '../oltp/postgres.js';
import { createShortUrlsRepo } from '../oltp/short-urls.repo.js';
import { createUsageMeter } from '../oltp/usage-meter.js';
import { createUsageRepo } from '../oltp/usage.repo.js';
import type { Logger } from '../shared/logger.js';
import type { SecretBox } from '../shared/secret-box.js';
import type { SharedRepos } from './wiring.js';

export function composeSharedRepos({
  sql,
  secretBox,
  log,
}: {
  sql: Sql;
  secretBox: SecretBox;
  log: Logger;
}): SharedRepos {
  const usage = createUsageRepo({ sql });
  return {
    organizations: createOrganizationsRepo({ sql }),
    apiKeys: createApiKeysRepo({ sql }),
    customDomains: createCustomDomainsRepo({ sql, secretBox }),
    mobileApps: createMobileAppsRepo({ sql, secretBox }),
    shortUrls: createShortUrlsRepo({ sql }),
    campaigns: createCampaignsRepo({ sql, secretBox }),
    usage,
    usageMeter: createUsageMeter({ repo: usage, log }),
  };
}
