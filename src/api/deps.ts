// What the HTTP app is built from: no list of its own, but the sum of what each API context
// declares it uses, in the context's own file (ServiceApiDeps in service/index.ts, and so on). A
// context sees only its part; a feature adds to its context's part and to the composition root.
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import type { AdminApiDeps } from './admin/index.js';
import type { ConsoleDeps } from './console/index.js';
import type { HealthDeps } from './health.routes.js';
import type { JourneyApiDeps } from './journey/index.js';
import type { RedirectDeps } from './redirect/redirect.routes.js';
import type { MobileCustomDomainDeps } from './sdk/mobile-custom-domains.routes.js';
import type { MobileSdkDeps } from './sdk/mobile-sdk.js';
import type { ServiceApiDeps } from './service/index.js';
import type { TlsAskDeps } from './tls-ask.routes.js';
import type { WebSdkDeps } from './sdk/web-sdk-data.routes.js';
import type { WellKnownDeps } from './well-known/well-known.routes.js';

/** What the app itself reads: its logger, proxy and host rules, request metrics. */
interface AppShellDeps {
  config: Config;
  log: Logger;
  metrics: Metrics;
}

export type AppDeps = AppShellDeps &
  HealthDeps &
  TlsAskDeps &
  ServiceApiDeps &
  JourneyApiDeps &
  AdminApiDeps &
  ConsoleDeps &
  MobileSdkDeps &
  MobileCustomDomainDeps &
  WebSdkDeps &
  WellKnownDeps &
  RedirectDeps;
