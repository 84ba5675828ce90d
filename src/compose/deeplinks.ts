// Wires the deep-link services: token and record stores, the deferred matcher, the event
// recorder, the SDK flows over them, and the purge rounds that keep the tables bounded.
import { createDeferredMatcher } from '../core/deeplinks/deferred-match.js';
import { startDeepLinkPurge } from '../core/deeplinks/purge-job.js';
import { createDeepLinkRecorder } from '../core/deeplinks/records.js';
import { createDeepLinkResolveService } from '../core/deeplinks/resolve.js';
import type { DeepLinkServices } from '../core/deeplinks/services.js';
import { createLinkTargets } from '../core/deeplinks/targets.js';
import { createDeepLinkTrackingService } from '../core/deeplinks/tracking.js';
import { createWebSdkDataService, type KeylessLimit } from '../core/deeplinks/web-sdk.js';
import type { EventPublisher } from '../ingest/publisher.js';
import type { CampaignsRepo } from '../oltp/campaigns.repo.js';
import { createDeepLinkRecordsRepo } from '../oltp/deep-link-records.repo.js';
import { createDeepLinkTokensRepo } from '../oltp/deep-link-tokens.repo.js';
import type { MobileAppsRepo } from '../oltp/mobile-apps.repo.js';
import type { Sql } from '../oltp/postgres.js';
import type { ShortUrlsRepo } from '../oltp/short-urls.repo.js';
import type { Logger } from '../shared/logger.js';

export function composeDeepLinks(ctx: {
  sql: Sql;
  events: EventPublisher;
  log: Logger;
  repos: { shortUrls: ShortUrlsRepo; campaigns: CampaignsRepo; mobileApps: MobileAppsRepo };
  keylessLimit: KeylessLimit;
}): DeepLinkServices {
  const { sql, events, repos } = ctx;
  const tokens = createDeepLinkTokensRepo({ sql });
  const records = createDeepLinkRecordsRepo({ sql });
  const recorder = createDeepLinkRecorder(events);
  const targets = createLinkTargets({ ...repos, records });
  const purgeJob = startDeepLinkPurge({ tokens, records, log: ctx.log });
  return {
    resolve: createDeepLinkResolveService({ tokens, matcher: createDeferredMatcher({ tokens }), recorder, targets }),
    tracking: createDeepLinkTrackingService({ tokens, records, recorder, targets, events }),
    webSdk: createWebSdkDataService({ tokens, records, recorder, mobileApps: repos.mobileApps, targets, keylessLimit: ctx.keylessLimit }),
    tokens,
    recorder,
    purge: purgeJob.runOnce,
    close: purgeJob.stop,
  };
}
