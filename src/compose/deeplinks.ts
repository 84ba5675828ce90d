// Wires the deep-link services: token and record stores, the deferred matcher, the event
// recorder, the SDK flows over them, and the purge rounds that keep the tables bounded.
import { createDeferredMatcher } from '../core/deeplinks/deferred-match.js';
import { createDeepLinkLandingService } from '../core/deeplinks/landing.service.js';
import { startDeepLinkPurge } from '../core/deeplinks/purge-job.js';
import { createDeepLinkRecorder } from '../core/deeplinks/records.js';
import { createDeepLinkResolveService } from '../core/deeplinks/resolve.js';
import type { DeepLinkServices } from '../core/deeplinks/index.js';
import { createLinkTargets } from '../core/deeplinks/targets.js';
import { createDeepLinkTrackingService } from '../core/deeplinks/tracking.service.js';
import type { ClickTokens } from '../core/clicks/click-token.js';
import { createWebSdkDataService, type KeylessLimit } from '../core/deeplinks/web-sdk.js';
import { createDeepLinkRecordsRepo } from '../oltp/deep-link-records.repo.js';
import { createDeepLinkTokensRepo } from '../oltp/deep-link-tokens.repo.js';
import type { DeepLinkTokensRepo } from '../oltp/deep-link-tokens.repo.js';
import type { Wiring } from './wiring.js';

export interface ComposedDeepLinks {
  services: DeepLinkServices;
  /** The token store the services share (tests read and stub it). */
  tokens: DeepLinkTokensRepo;
  /** Runs a purge round now (tests, operators); one also runs every few minutes. */
  purge(): Promise<number>;
  /** Stops the purge rounds. */
  close(): Promise<void>;
}

export function composeDeepLinks(
  ctx: Pick<Wiring, 'config' | 'sql' | 'events' | 'log' | 'repos'> & {
    keylessLimit: KeylessLimit;
    /** Verifies the click ids of links with conversion tracking (the resolve endpoint). */
    clickTokens: Pick<ClickTokens, 'verify'>;
  },
): ComposedDeepLinks {
  const { sql, events } = ctx;
  const { shortUrls, campaigns, mobileApps } = ctx.repos;
  const tokens = createDeepLinkTokensRepo({ sql });
  const records = createDeepLinkRecordsRepo({ sql });
  const recorder = createDeepLinkRecorder(events);
  const targets = createLinkTargets({ shortUrls, campaigns, mobileApps, records });
  const purgeJob = startDeepLinkPurge({ tokens, records, log: ctx.log });
  return {
    services: {
      resolve: createDeepLinkResolveService({ tokens, matcher: createDeferredMatcher({ tokens }), recorder, targets }),
      tracking: createDeepLinkTrackingService({ tokens, records, recorder, targets, events }),
      webSdk: createWebSdkDataService({
        tokens,
        records,
        recorder,
        mobileApps,
        targets,
        keylessLimit: ctx.keylessLimit,
        clickTokens: ctx.clickTokens,
      }),
      landing: createDeepLinkLandingService({
        tokens,
        recorder,
        backoffMs: ctx.config.redirect.deepLinkTokenBackoffMs,
      }),
    },
    tokens,
    purge: purgeJob.runOnce,
    close: purgeJob.stop,
  };
}
