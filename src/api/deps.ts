// Everything the HTTP layer needs, handed in by the composition root (src/container.ts).
import type { Config } from '../shared/config.js';
import type { AccessService } from '../core/access/index.js';
import type { OrganizationServices } from '../core/organizations/index.js';
import type { AccountServices } from '../core/accounts/index.js';
import type { DeepLinkServices } from '../core/deeplinks/services.js';
import type { SdkAuthenticator } from './sdk/app-auth.js';
import type { AuthFailureLimiters } from './auth-failures.js';
import type { SdkRateLimiter } from './sdk/rate-limit.js';
import type { LinkResolver } from '../core/redirect/link-resolver.js';
import type { LinksService } from '../core/links/links-service.js';
import type { GoalTypesService } from '../core/links/goal-types.js';
import type { AppsService } from '../core/apps/apps.js';
import type { DomainsService } from '../core/domains/domains.service.js';
import type { ClickCounts } from '../olap/click-counts.js';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import type { SecretBox } from '../shared/secret-box.js';
import type { EventPublisher } from '../ingest/publisher.js';
import type { CampaignsRepo } from '../oltp/campaigns.repo.js';
import type { MobileAppsRepo } from '../oltp/mobile-apps.repo.js';
import type { ShortUrlsRepo } from '../oltp/short-urls.repo.js';
import type { CustomDomainsRepo } from '../oltp/custom-domains.repo.js';
import type { OrganizationsRepo } from '../oltp/organizations.repo.js';
import type { UsageMeter } from '../oltp/usage-meter.js';
import type { JourneyService } from '../core/journey/journey-service.js';
import type { StatsService } from '../core/stats/stats-service.js';
import type { ReadOnlySql } from '../core/data-access/read-only-sql.js';
import type { WebhooksService } from '../core/webhooks/webhooks-service.js';
import type { WebhookSettings } from '../core/webhooks/webhook-settings.js';

export interface Lifecycle {
  /** False while starting and from the first moment of shutdown: /readyz answers 503. */
  isReady(): boolean;
}

export interface AppDeps {
  /** Short URLs and campaigns of the caller's organization. */
  links: LinksService;
  /** The goal types an organization's links may name: the presets and its own (managed in the console). */
  goalTypes: GoalTypesService;
  /** Cached slug → link resolution for the redirect. */
  redirect: LinkResolver;
  /** Tells every instance (this one first) that an organization's links may have changed. */
  linkChanged(organizationId: number | null): void;
  /** clickCount of links and campaigns, from ClickHouse. */
  clickCounts: ClickCounts;
  config: Config;
  log: Logger;
  metrics: Metrics;
  secretBox: SecretBox;
  events: EventPublisher;
  /** Counts Service API calls toward the quota; flushed to PostgreSQL every second. */
  usageMeter: UsageMeter;
  /** Who is calling: Service API keys (allow-list, quota) and SDK app credentials. */
  access: AccessService;
  /** Organizations and their keys, plans and add-ons; SSO partners; notices; usage. */
  organizations: OrganizationServices;
  /** People: sign-in (mail links, partner SSO), console sessions, members and roles, the audit trail. */
  accounts: AccountServices;
  /** Failed authentications per client address, one limiter per surface (429 after too many). */
  authFailures: AuthFailureLimiters;
  lifecycle: Lifecycle;
  clock: () => Date;
  /** SDK callers (mobile and web SDK, user journey): who they are, and their rate limits (keyed per app, keyless per app and address). */
  sdk: { authenticate: SdkAuthenticator; rateLimit: SdkRateLimiter };
  /** Mobile apps, and the apple-app-site-association and assetlinks.json per host built from them. */
  apps: AppsService;
  /** Custom domains: reading, registration, status, and their DNS verification. */
  domains: DomainsService;
  /** Deep links: the SDK flows (resolution, tracking, web SDK reports), and the token store and recorder the landing page uses. */
  deepLinks: DeepLinkServices;
  /** User journey: sessions, their activity, identities and consents. */
  journey: JourneyService;
  /** Statistics: link clicks and revenue, app installs, the user journey. */
  stats: StatsService;
  /** The operator's webhook endpoint and delivery log. */
  webhooks: WebhooksService;
  /** The same endpoint and log as a console member manages them (webhooks.manage). */
  webhookSettings: WebhookSettings;
  /** Recent dead letters of the event pipeline, newest first; undefined where the bus keeps none it can list. */
  deadLetters: {
    recent(limit: number): Promise<{ subject: string; id: string; reason: string; at: Date }[] | undefined>;
  };
  /** One read-only ClickHouse query for the operator (the embedded engine has no server to connect to). */
  readOnlySql: ReadOnlySql;
  repos: {
    organizations: OrganizationsRepo;
    customDomains: CustomDomainsRepo;
    mobileApps: MobileAppsRepo;
    shortUrls: ShortUrlsRepo;
    campaigns: CampaignsRepo;
  };
}
