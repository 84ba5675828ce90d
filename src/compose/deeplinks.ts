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
import { createDeepLinkRecordsRepo } from '../oltp/deep-link-records.repo.js';
import { createDeepLinkTokensRepo } from '../oltp/deep-link-tokens.repo.js';
import type { Wiring } from './wiring.js';

export function composeDeepLinks(
  ctx: Pick<Wiring, 'sql' | 'events' | 'log' | 'repos'> & { keylessLimit: KeylessLimit },
): DeepLinkServices {
  const { sql, events } = ctx;
  const { shortUrls, campaigns, mobileApps } = ctx.repos;
  const tokens = createDeepLinkTokensRepo({ sql });
  const records = createDeepLinkRecordsRepo({ sql });
  const recorder = createDeepLinkRecorder(events);
  const targets = createLinkTargets({ shortUrls, campaigns, mobileApps, records });
  const purgeJob = startDeepLinkPurge({ tokens, records, log: ctx.log });
  return {
    resolve: createDeepLinkResolveService({ tokens, matcher: createDeferredMatcher({ tokens }), recorder, targets }),
    tracking: createDeepLinkTrackingService({ tokens, records, recorder, targets, events }),
    webSdk: createWebSdkDataService({ tokens, records, recorder, mobileApps, targets, keylessLimit: ctx.keylessLimit }),
    tokens,
    recorder,
    purge: purgeJob.runOnce,
    close: purgeJob.stop,
  };
}
