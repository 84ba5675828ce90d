// The deep-link parts the HTTP layer uses, built once by the composition root: token and record
// stores, the deferred matcher, the event recorder, and the purge rounds that keep tables bounded.
import type { EventPublisher } from '../../ingest/publisher.js';
import { createDeepLinkRecordsRepo, type DeepLinkRecordsRepo } from '../../oltp/deep-link-records.repo.js';
import { createDeepLinkTokensRepo, type DeepLinkTokensRepo } from '../../oltp/deep-link-tokens.repo.js';
import type { Sql } from '../../oltp/postgres.js';
import type { Logger } from '../../shared/logger.js';
import { createDeferredMatcher, type DeferredMatcher } from './deferred-match.js';
import { startDeepLinkPurge } from './purge-job.js';
import { createDeepLinkRecorder, type DeepLinkRecorder } from './records.js';

export interface DeepLinkServices {
  tokens: DeepLinkTokensRepo;
  records: DeepLinkRecordsRepo;
  matcher: DeferredMatcher;
  recorder: DeepLinkRecorder;
  /** Runs a purge round now (tests, operators); one also runs every few minutes. */
  purge(): Promise<number>;
  close(): Promise<void>;
}

export function createDeepLinkServices(options: { sql: Sql; events: EventPublisher; log: Logger }): DeepLinkServices {
  const tokens = createDeepLinkTokensRepo({ sql: options.sql });
  const records = createDeepLinkRecordsRepo({ sql: options.sql });
  const purgeJob = startDeepLinkPurge({ tokens, records, log: options.log });
  return {
    tokens,
    records,
    matcher: createDeferredMatcher({ tokens }),
    recorder: createDeepLinkRecorder(options.events),
    purge: purgeJob.runOnce,
    close: purgeJob.stop,
  };
}
