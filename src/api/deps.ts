// Everything the HTTP layer needs, handed in by the composition root (src/container.ts).
import type { Config } from '../shared/config.js';
import type { DeepLinkServices } from '../deeplink/services.js';
import type { SdkAuthenticator } from './sdk/app-auth.js';
import type { AuthFailureLimiters } from './auth-failures.js';
import type { SdkRateLimiter } from './sdk/rate-limit.js';
import type { LinkResolver } from './redirect/link-resolver.js';
import type { WellKnownFiles } from './well-known/association-files.js';
import type { DomainVerifier } from '../domains/domain-verifier.js';
import type { ClickCounts } from '../olap/click-counts.js';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import type { SecretBox } from '../shared/secret-box.js';
import type { EventPublisher } from '../ingest/publisher.js';
import type { ApiKeysRepo } from '../oltp/api-keys.repo.js';
import type { CampaignsRepo } from '../oltp/campaigns.repo.js';
import type { MobileAppsRepo } from '../oltp/mobile-apps.repo.js';
import type { ShortUrlsRepo } from '../oltp/short-urls.repo.js';
import type { CustomDomainsRepo } from '../oltp/custom-domains.repo.js';
import type { OrganizationsRepo } from '../oltp/organizations.repo.js';
import type { SsoPartnersRepo } from '../oltp/sso-partners.repo.js';
import type { UsageMeter } from '../oltp/usage-meter.js';
import type { UsageRepo } from '../oltp/usage.repo.js';
import type { WebhookEndpointsRepo } from '../oltp/webhook-endpoints.repo.js';
import type { JourneyService } from '../core/journey/journey-service.js';
import type { StatsService } from '../core/stats/stats-service.js';
import type { WebhookDeliveriesRepo } from '../oltp/webhook-deliveries.repo.js';
import type { NoticesRepo } from '../oltp/notices.repo.js';
import type { Resolve } from '../shared/webhook-url.js';

export interface Lifecycle {
  /** False while starting and from the first moment of shutdown: /readyz answers 503. */
  isReady(): boolean;
}

export interface AppDeps {
  /** Cached slug → link resolution for the redirect. */
  links: LinkResolver;
  /** Tells every instance (this one first) that an organization's links may have changed. */
  linkChanged(organizationId: number | null): void;
  /** clickCount of links and campaigns, from ClickHouse. */
  clickCounts: ClickCounts;
  config: Config;
  log: Logger;
  metrics: Metrics;
  secretBox: SecretBox;
  events: EventPublisher;
  usageMeter: UsageMeter;
  /** Failed authentications per client address, one limiter per surface (429 after too many). */
  authFailures: AuthFailureLimiters;
  lifecycle: Lifecycle;
  clock: () => Date;
  /** SDK callers (mobile and web SDK, user journey): who they are, and their rate limits (keyed per app, keyless per app and address). */
  sdk: { authenticate: SdkAuthenticator; rateLimit: SdkRateLimiter };
  /** Custom-domain DNS verification (background job; the mobile SDK's verify checks one at once). */
  domainVerifier: DomainVerifier;
  /** apple-app-site-association and assetlinks.json per host, briefly cached. */
  wellKnownFiles: WellKnownFiles;
  /** Deep-link tokens, deferred matching, SDK records and the deep-link events. */
  deepLinks: DeepLinkServices;
  /** User journey: sessions, their activity, identities and consents. */
  journey: JourneyService;
  /** Statistics: link clicks and revenue, app installs, the user journey. */
  stats: StatsService;
  /**
   * Webhook URL checks resolve names with this; nudge wakes this instance's delivery worker;
   * endpointChanged tells every instance's bus consumer to reread the subscriptions.
   */
  webhooks: { resolve: Resolve; nudge(): void; endpointChanged(): void };
  /** Recent dead letters of the event pipeline, newest first; undefined where the bus keeps none it can list. */
  deadLetters: { recent(limit: number): Promise<{ subject: string; id: string; reason: string; at: Date }[] | undefined> };
  repos: {
    organizations: OrganizationsRepo;
    apiKeys: ApiKeysRepo;
    customDomains: CustomDomainsRepo;
    webhookEndpoints: WebhookEndpointsRepo;
    webhookDeliveries: WebhookDeliveriesRepo;
    notices: NoticesRepo;
    ssoPartners: SsoPartnersRepo;
    usage: UsageRepo;
    mobileApps: MobileAppsRepo;
    shortUrls: ShortUrlsRepo;
    campaigns: CampaignsRepo;
  };
}
