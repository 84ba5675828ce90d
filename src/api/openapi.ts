// The OpenAPI document (GET /openapi.json) as API clients need it: @fastify/swagger builds it from
// the route schemas, and this module finishes it in one place rather than in ~160 route files:
// a stable operationId per operation (the table below; a route's own schema may name one), the
// tag set declared with descriptions, each operation's security stated (the context's
// authentication where a route names none, else none: `security: []`) with the scope a Service
// API key needs (service/key-scopes.ts), the error answers a route can give documented with the
// error body, examples for the Service API, and no component schema that nothing refers to.
// test/openapi-lint.test.ts keeps it so.
import { STATUS_CODES } from 'node:http';
import { documentKeyScope } from './service/key-scopes.js';
import { SERVICE_EXAMPLES, type OperationExample } from './service/openapi-examples.js';

type Json = Record<string, unknown>;
type Security = Record<string, string[]>[];

interface MediaType {
  schema?: Json;
  example?: unknown;
}

interface Response {
  description?: string;
  content?: Record<string, MediaType>;
}

interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Security;
  parameters?: Json[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  responses?: Record<string, Response>;
  'x-required-scope'?: string;
}

interface Document {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

export const SECURITY_SCHEMES = {
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY', description: 'Service API key (console, developer menu)' },
  adminToken: { type: 'http', scheme: 'bearer', description: "The operator's token (SIGNPOST_ADMIN_TOKEN)" },
  appId: { type: 'apiKey', in: 'header', name: 'X-App-ID', description: 'Id of a registered mobile app' },
  mobileAppKey: { type: 'apiKey', in: 'header', name: 'X-Mobile-App-API-Key', description: "The mobile app's apiKey" },
  consoleSession: { type: 'apiKey', in: 'cookie', name: 'sp_session', description: 'Console sign-in session' },
} as const;

/** Every tag an operation may carry, with its description, in the order a reference page lists them. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  'service: short URLs': 'Service API (X-API-KEY): create, list, read, update and delete short URLs; QR codes',
  'service: campaigns': 'Service API: campaigns, named tracked links with an alias',
  'service: tags': "Service API: the organization's tags, which short URLs and campaigns carry by name",
  'service: mobile apps': 'Service API: iOS and Android apps, their SDK keys and identity verification',
  'service: custom domains': "Service API: the organization's custom domains (read-only, deletion requests)",
  'service: statistics': 'Service API: click, app-install and deferred-match statistics',
  'service: users': 'Service API: identified users and their consent history',
  'service: account': "Service API: the organization's plan and usage",
  'service: webhooks': "Service API: the organization's webhook endpoint, its signing secret and its delivery log",
  'service: imports':
    "Service API: imports of another link service's links (Bitly, Shlink, Kutt, YOURLS, Dub, Rebrandly) or of a CSV file",
  'mobile SDK: deep links': 'Mobile SDK API (X-App-ID and X-Mobile-App-API-Key): deep-link matching and resolution',
  'mobile SDK: tracking': 'Mobile SDK API: funnel stages, clicks and link associations',
  'mobile SDK: custom domains': "Mobile SDK API: the app's organization's custom domains",
  'web SDK': 'Web SDK API: fingerprints, store visits, debug reports, token resolution and the SDK version',
  'user journey: sessions': 'User-journey sessions across web and app (X-App-ID; apps add their key)',
  'user journey: events': 'User-journey events, platform transitions and funnel stages of a session',
  'user journey: users': 'Identify (upsert by external user id) and consent updates',
  'user journey: statistics': 'User-journey statistics, for an app or with the Service API key',
  'single sign-on': 'Partner single sign-on into the console (browser redirect target)',
  console: "The console's own API (session cookie and CSRF token); not for integrations",
  operator: 'The operator API (bearer token): organizations, keys, domains, partners, webhooks, imports, diagnostics',
  operations: 'Probes for load balancers and the TLS terminator',
};

export const OPENAPI_TAGS = Object.entries(TAG_DESCRIPTIONS).map(([name, description]) => ({ name, description }));

/** operationIds by `METHOD path` (the document's path form). Names stay stable once released. */
export const OPERATION_IDS: Record<string, string> = {
  'GET /healthz': 'getLiveness',
  'GET /readyz': 'getReadiness',
  'GET /api/tls/ask': 'askTlsCertificateAllowed',
  // Service API
  'GET /api/v1/service/usage': 'getUsage',
  'POST /api/v1/service/imports': 'startImport',
  'POST /api/v1/service/imports/csv': 'startCsvImport',
  'GET /api/v1/service/imports': 'listImports',
  'GET /api/v1/service/imports/{id}': 'getImport',
  'POST /api/v1/service/imports/{id}/cancel': 'cancelImport',
  'POST /api/v1/service/urls': 'createShortUrl',
  'GET /api/v1/service/urls': 'listShortUrls',
  'GET /api/v1/service/urls/{id}': 'getShortUrl',
  'PUT /api/v1/service/urls/{id}': 'updateShortUrl',
  'DELETE /api/v1/service/urls/{id}': 'deleteShortUrl',
  'GET /api/v1/service/urls/{id}/qr': 'getShortUrlQrCode',
  'POST /api/v1/service/urls/bulk': 'createShortUrls',
  'PATCH /api/v1/service/urls/bulk': 'updateShortUrls',
  'DELETE /api/v1/service/urls/bulk': 'deleteShortUrls',
  'GET /api/v1/service/urls/export': 'exportShortUrls',
  'POST /api/v1/service/urls/import': 'importShortUrls',
  'GET /api/v1/service/campaigns/export': 'exportCampaigns',
  'POST /api/v1/service/campaigns': 'createCampaign',
  'GET /api/v1/service/campaigns': 'listCampaigns',
  'GET /api/v1/service/campaigns/{id}': 'getCampaign',
  'PUT /api/v1/service/campaigns/{id}': 'updateCampaign',
  'DELETE /api/v1/service/campaigns/{id}': 'deleteCampaign',
  'GET /api/v1/service/tags': 'listTags',
  'POST /api/v1/service/tags': 'createTag',
  'PUT /api/v1/service/tags/{id}': 'updateTag',
  'DELETE /api/v1/service/tags/{id}': 'deleteTag',
  'POST /api/v1/service/mobile-apps': 'createMobileApp',
  'GET /api/v1/service/mobile-apps': 'listMobileApps',
  'GET /api/v1/service/mobile-apps/{id}': 'getMobileApp',
  'PUT /api/v1/service/mobile-apps/{id}': 'updateMobileApp',
  'DELETE /api/v1/service/mobile-apps/{id}': 'deleteMobileApp',
  'POST /api/v1/service/mobile-apps/{id}/api-key': 'regenerateMobileAppKey',
  'POST /api/v1/service/mobile-apps/{id}/identity-verification': 'enableIdentityVerification',
  'DELETE /api/v1/service/mobile-apps/{id}/identity-verification': 'disableIdentityVerification',
  'GET /api/v1/service/custom-domains': 'listCustomDomains',
  'GET /api/v1/service/custom-domains/verified': 'listVerifiedCustomDomains',
  'GET /api/v1/service/custom-domains/{id}': 'getCustomDomain',
  'POST /api/v1/service/custom-domains/{id}/deletion-request': 'requestCustomDomainDeletion',
  'DELETE /api/v1/service/custom-domains/{id}/deletion-request': 'cancelCustomDomainDeletion',
  'GET /api/v1/service/urls/{id}/stats': 'getShortUrlStats',
  'GET /api/v1/service/campaigns/{id}/stats': 'getCampaignStats',
  'POST /api/v1/service/urls/{id}/share': 'shareShortUrlStats',
  'DELETE /api/v1/service/urls/{id}/share': 'unshareShortUrlStats',
  'GET /api/v1/service/urls/{id}/app-install-stats': 'getShortUrlInstallStats',
  'GET /api/v1/service/campaigns/{id}/app-install-stats': 'getCampaignInstallStats',
  'GET /api/v1/service/mobile-apps/{id}/install-stats': 'getMobileAppInstallStats',
  'GET /api/v1/service/mobile-apps/{id}/deferred-match-stats': 'getDeferredMatchStats',
  'GET /api/v1/service/users': 'findUsers',
  'GET /api/v1/service/users/{externalUserId}': 'getUser',
  'GET /api/v1/service/users/{externalUserId}/consent-history': 'getUserConsentHistory',
  'GET /api/v1/service/webhook': 'getWebhook',
  'PUT /api/v1/service/webhook': 'setWebhook',
  'DELETE /api/v1/service/webhook': 'deleteWebhook',
  'POST /api/v1/service/webhook/secret': 'rotateWebhookSecret',
  'GET /api/v1/service/webhook/deliveries': 'listWebhookDeliveries',
  'GET /api/v1/service/webhook/deliveries/{id}': 'getWebhookDelivery',
  'POST /api/v1/service/webhook/deliveries/{id}/redeliver': 'redeliverWebhookDelivery',
  'POST /api/v1/service/webhook/test': 'sendWebhookTest',
  // User-journey API
  'POST /api/v1/cross-platform/session/create': 'createJourneySession',
  'GET /api/v1/cross-platform/session/{sessionId}': 'getJourneySession',
  'POST /api/v1/cross-platform/session/{sessionId}/link-user': 'linkJourneySessionUser',
  'POST /api/v1/cross-platform/session/register-fplink': 'registerJourneySessionLink',
  'POST /api/v1/cross-platform/session/event': 'recordJourneyEvent',
  'POST /api/v1/cross-platform/session/transition': 'recordJourneyTransition',
  'POST /api/v1/cross-platform/session/funnel/track': 'trackJourneyFunnelStage',
  'GET /api/v1/cross-platform/session/{sessionId}/events': 'listJourneySessionEvents',
  'GET /api/v1/cross-platform/session/{sessionId}/transitions': 'listJourneySessionTransitions',
  'POST /api/v1/cross-platform/identify': 'identifyUser',
  'POST /api/v1/cross-platform/opt-in': 'updateUserConsent',
  'GET /api/v1/cross-platform/stats/dashboard': 'getJourneyDashboard',
  'GET /api/v1/cross-platform/stats/summary': 'getJourneySummary',
  'GET /api/v1/cross-platform/stats/daily': 'getJourneyDailyStats',
  'GET /api/v1/cross-platform/stats/sessions/summary': 'getJourneySessionsSummary',
  'GET /api/v1/cross-platform/stats/sessions/by-platform': 'getJourneySessionsByPlatform',
  'GET /api/v1/cross-platform/stats/sessions/by-utm-source': 'getJourneySessionsByUtmSource',
  'GET /api/v1/cross-platform/stats/sessions/list': 'listJourneySessions',
  'GET /api/v1/cross-platform/stats/transitions/summary': 'getJourneyTransitionsSummary',
  'GET /api/v1/cross-platform/stats/transitions/trend': 'getJourneyTransitionsTrend',
  // The same session operations for browsers (web SDK API)
  'POST /api/v1/sdk/web/journey/session/create': 'webCreateJourneySession',
  'GET /api/v1/sdk/web/journey/session/{sessionId}': 'webGetJourneySession',
  'POST /api/v1/sdk/web/journey/session/{sessionId}/link-user': 'webLinkJourneySessionUser',
  'POST /api/v1/sdk/web/journey/session/register-fplink': 'webRegisterJourneySessionLink',
  'POST /api/v1/sdk/web/journey/session/event': 'webRecordJourneyEvent',
  'POST /api/v1/sdk/web/journey/session/transition': 'webRecordJourneyTransition',
  'POST /api/v1/sdk/web/journey/session/funnel/track': 'webTrackJourneyFunnelStage',
  'GET /api/v1/sdk/web/journey/session/{sessionId}/events': 'webListJourneySessionEvents',
  'GET /api/v1/sdk/web/journey/session/{sessionId}/transitions': 'webListJourneySessionTransitions',
  // Web SDK API
  'GET /api/v1/sdk/web/version': 'getWebSdkVersion',
  'POST /api/v1/sdk/web/deeplink/update-fingerprint': 'updateDeepLinkFingerprint',
  'POST /api/v1/sdk/web/campaign-deep-link/update-fingerprint': 'updateCampaignDeepLinkFingerprint',
  'POST /api/v1/sdk/web/deeplink/track-store-visit': 'trackStoreVisit',
  'POST /api/v1/sdk/web/deeplink/debug-scheme': 'reportDebugScheme',
  'GET /api/v1/sdk/web/deeplink/resolve': 'resolveDeepLinkToken',
  // Mobile SDK API
  'GET /api/v1/sdk/mobile/custom-domains': 'mobileListCustomDomains',
  'GET /api/v1/sdk/mobile/custom-domains/verified': 'mobileListVerifiedCustomDomains',
  'GET /api/v1/sdk/mobile/custom-domains/{id}': 'mobileGetCustomDomain',
  'POST /api/v1/sdk/mobile/custom-domains/{id}/verify': 'mobileVerifyCustomDomain',
  'GET /api/v1/sdk/mobile/deeplink/match': 'matchDeepLink',
  'GET /api/v1/sdk/mobile/deeplink/resolve-fingerprint': 'resolveDeferredDeepLink',
  'GET /api/v1/sdk/mobile/deeplink/resolve-shorturl/{code}': 'resolveShortUrl',
  'GET /api/v1/sdk/mobile/deeplink/resolve-shorturl/{appPath}/{code}': 'resolveAppShortUrl',
  'GET /api/v1/sdk/mobile/deeplink/resolve-campaign/{alias}': 'resolveCampaign',
  'GET /api/v1/sdk/mobile/deeplink/resolve-campaign/{appPath}/{alias}': 'resolveAppCampaign',
  'POST /api/v1/sdk/mobile/deeplink/funnel/track': 'trackFunnelStage',
  'POST /api/v1/sdk/mobile/clicks/url': 'trackShortUrlClick',
  'POST /api/v1/sdk/mobile/clicks/campaign': 'trackCampaignClick',
  'POST /api/v1/sdk/mobile/links/{shortCode}/associations': 'associateShortUrl',
  'POST /api/v1/sdk/mobile/links/{appPath}/{shortCode}/associations': 'associateAppShortUrl',
  // Single sign-on
  'GET /sso/callback': 'completeSingleSignOn',
  // Operator API
  'POST /api/admin/v1/organizations': 'adminCreateOrganization',
  'GET /api/admin/v1/organizations': 'adminListOrganizations',
  'GET /api/admin/v1/organizations/{orgId}': 'adminGetOrganization',
  'PUT /api/admin/v1/organizations/{orgId}/plan': 'adminSetPlan',
  'PUT /api/admin/v1/organizations/{orgId}/add-ons': 'adminSetAddOns',
  'PUT /api/admin/v1/organizations/{orgId}/language': 'adminSetLanguage',
  'PUT /api/admin/v1/organizations/{orgId}/time-zone': 'adminSetTimeZone',
  'PUT /api/admin/v1/organizations/{orgId}/ip-allowlist': 'adminSetIpAllowlist',
  'GET /api/admin/v1/organizations/{orgId}/api-keys': 'adminListApiKeys',
  'POST /api/admin/v1/organizations/{orgId}/api-keys': 'adminCreateApiKey',
  'GET /api/admin/v1/organizations/{orgId}/api-keys/{keyId}': 'adminGetApiKey',
  'DELETE /api/admin/v1/organizations/{orgId}/api-keys/{keyId}': 'adminDeleteApiKey',
  'POST /api/admin/v1/organizations/{orgId}/custom-domains': 'adminCreateCustomDomain',
  'GET /api/admin/v1/custom-domains': 'adminListCustomDomains',
  'GET /api/admin/v1/custom-domains/{id}': 'adminGetCustomDomain',
  'DELETE /api/admin/v1/custom-domains/{id}': 'adminDeleteCustomDomain',
  'PUT /api/admin/v1/custom-domains/{id}/status': 'adminSetCustomDomainStatus',
  'PUT /api/admin/v1/custom-domains/{id}/fallback-url': 'adminSetCustomDomainFallbackUrl',
  'PUT /api/admin/v1/organizations/{orgId}/webhook': 'adminSetWebhook',
  'GET /api/admin/v1/organizations/{orgId}/webhook': 'adminGetWebhook',
  'GET /api/admin/v1/organizations/{orgId}/webhook/deliveries': 'adminListWebhookDeliveries',
  'GET /api/admin/v1/organizations/{orgId}/webhook/deliveries/{id}': 'adminGetWebhookDelivery',
  'POST /api/admin/v1/organizations/{orgId}/webhook/deliveries/{id}/redeliver': 'adminRedeliverWebhookDelivery',
  'POST /api/admin/v1/organizations/{orgId}/webhook/test': 'adminSendTestWebhook',
  'POST /api/admin/v1/organizations/{orgId}/imports': 'adminStartImport',
  'POST /api/admin/v1/organizations/{orgId}/imports/csv': 'adminStartCsvImport',
  'GET /api/admin/v1/organizations/{orgId}/imports': 'adminListImports',
  'GET /api/admin/v1/organizations/{orgId}/imports/{id}': 'adminGetImport',
  'POST /api/admin/v1/organizations/{orgId}/imports/{id}/cancel': 'adminCancelImport',
  'GET /api/admin/v1/organizations/{orgId}/notices': 'adminListNotices',
  'POST /api/admin/v1/partners': 'adminCreatePartner',
  'GET /api/admin/v1/partners': 'adminListPartners',
  'GET /api/admin/v1/partners/{clientId}': 'adminGetPartner',
  'PUT /api/admin/v1/partners/{clientId}': 'adminUpdatePartner',
  'DELETE /api/admin/v1/partners/{clientId}': 'adminDeletePartner',
  'POST /api/admin/v1/partners/{clientId}/secret': 'adminRotatePartnerSecret',
  'POST /api/admin/v1/organizations/{orgId}/members': 'adminAddMember',
  'GET /api/admin/v1/organizations/{orgId}/members': 'adminListMembers',
  'DELETE /api/admin/v1/organizations/{orgId}/members/{userId}': 'adminRemoveMember',
  'POST /api/admin/v1/login-links': 'adminCreateLoginLink',
  'GET /api/admin/v1/debug-scheme-reports': 'adminListDebugSchemeReports',
  'GET /api/admin/v1/dead-letters': 'adminListDeadLetters',
  'POST /api/admin/v1/sql': 'adminRunSql',
  // Console API
  'POST /console/api/sign-in/email': 'consoleRequestSignInLink',
  'GET /console/api/session': 'consoleGetSession',
  'POST /console/api/sign-out': 'consoleSignOut',
  'POST /console/api/sign-out-everywhere': 'consoleSignOutEverywhere',
  'PUT /console/api/me/language': 'consoleSetMyLanguage',
  'GET /console/api/me/sessions': 'consoleListMySessions',
  'DELETE /console/api/me/sessions/{sessionId}': 'consoleEndMySession',
  'GET /console/api/organizations/{orgId}/members/{userId}/sessions': 'consoleListMemberSessions',
  'DELETE /console/api/organizations/{orgId}/members/{userId}/sessions': 'consoleEndMemberSessions',
  'GET /console/api/organizations/{orgId}/api-keys': 'consoleListApiKeys',
  'POST /console/api/organizations/{orgId}/api-keys': 'consoleCreateApiKey',
  'POST /console/api/organizations/{orgId}/api-keys/{keyId}/regenerate': 'consoleRegenerateApiKey',
  'DELETE /console/api/organizations/{orgId}/api-keys/{keyId}': 'consoleDeleteApiKey',
  'GET /console/api/organizations/{orgId}/ip-allowlist': 'consoleGetIpAllowlist',
  'PUT /console/api/organizations/{orgId}/ip-allowlist': 'consoleSetIpAllowlist',
  'GET /console/api/organizations/{orgId}/webhook': 'consoleGetWebhook',
  'PUT /console/api/organizations/{orgId}/webhook': 'consoleSetWebhook',
  'POST /console/api/organizations/{orgId}/webhook/secret': 'consoleRotateWebhookSecret',
  'POST /console/api/organizations/{orgId}/webhook/test': 'consoleSendTestWebhook',
  'GET /console/api/organizations/{orgId}/webhook/deliveries': 'consoleListWebhookDeliveries',
  'GET /console/api/organizations/{orgId}/webhook/deliveries/{id}': 'consoleGetWebhookDelivery',
  'POST /console/api/organizations/{orgId}/webhook/deliveries/{id}/redeliver': 'consoleRedeliverWebhookDelivery',
  'POST /console/api/organizations/{orgId}/custom-domains': 'consoleCreateCustomDomain',
  'POST /console/api/organizations/{orgId}/custom-domains/{id}/verify': 'consoleVerifyCustomDomain',
  'GET /console/api/organizations/{orgId}/goal-types': 'consoleListGoalTypes',
  'POST /console/api/organizations/{orgId}/goal-types': 'consoleCreateGoalType',
  'DELETE /console/api/organizations/{orgId}/goal-types/{name}': 'consoleDeleteGoalType',
  'POST /console/api/organizations/{orgId}/routing/test': 'consoleTestRouting',
  'GET /console/api/organizations/{orgId}/usage': 'consoleGetUsage',
  'GET /console/api/organizations/{orgId}/dashboard': 'consoleGetDashboard',
  'GET /console/api/organizations/{orgId}/report-subscriptions': 'consoleListReportSubscriptions',
  'POST /console/api/organizations/{orgId}/report-subscriptions': 'consoleSubscribeToReport',
  'DELETE /console/api/organizations/{orgId}/report-subscriptions/{id}': 'consoleCancelReportSubscription',
  'GET /console/api/organizations/{orgId}/dashboard/{kind}/{id}': 'consoleGetLinkDashboard',
  'GET /console/api/organizations/{orgId}/dashboard/tags': 'consoleGetTagClicks',
  'GET /console/api/organizations/{orgId}/dashboard/export.csv': 'consoleExportDashboardCsv',
  'GET /console/api/organizations/{orgId}/dashboard/apps/{id}': 'consoleGetAppDashboard',
  'GET /console/api/organizations/{orgId}/dashboard/apps/{id}/export.csv': 'consoleExportAppDashboardCsv',
  'GET /console/api/organizations/{orgId}/dashboard/apps/{id}/revenue': 'consoleGetAppRevenue',
  'GET /console/api/organizations/{orgId}/members': 'consoleListMembers',
  'POST /console/api/organizations/{orgId}/members': 'consoleAddMember',
  'PUT /console/api/organizations/{orgId}/members/{userId}': 'consoleUpdateMember',
  'DELETE /console/api/organizations/{orgId}/members/{userId}': 'consoleRemoveMember',
  'GET /console/api/organizations/{orgId}/audit-log': 'consoleListAuditLog',
};

const APP = { appId: [] };
const APP_WITH_KEY = { appId: [], mobileAppKey: [] };

/**
 * The authentication of a context whose routes state none themselves, by path prefix (the first
 * match wins). Anything else takes no credentials.
 */
const CONTEXT_SECURITY: Array<[prefix: string, security: Security]> = [
  ['/api/v1/sdk/mobile/', [APP_WITH_KEY]],
  // The web SDK's token lookup and identify/opt-in: browsers send the app id, apps add their key.
  ['/api/v1/sdk/web/deeplink/resolve', [APP, APP_WITH_KEY]],
  ['/api/v1/cross-platform/identify', [APP, APP_WITH_KEY]],
  ['/api/v1/cross-platform/opt-in', [APP, APP_WITH_KEY]],
];

/** What each error status means across the API (the spec's error table). */
const ERRORS: Record<string, string> = {
  400: 'Invalid request: a parameter or the body failed validation',
  401: 'Authentication failed: credentials missing or invalid',
  403: "Not permitted: blocked IP address, the API key's scope, plan restriction, missing add-on or role",
  404: "Not found, or another organization's",
  409: 'Conflict, such as a duplicate alias',
  410: 'Gone: the link or token has expired',
  429: 'Request limit exceeded (rate or monthly quota)',
};

const ERROR_BODY_REF = '#/components/schemas/ErrorBody';

/** The document as API clients get it; `doc` is @fastify/swagger's, changed in place. */
export function finishOpenApiDocument<T>(doc: T): T {
  const { paths = {} } = doc as Document;
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const key = `${method.toUpperCase()} ${path}`;
      operation.operationId ??= OPERATION_IDS[key];
      operation.security ??= CONTEXT_SECURITY.find(([prefix]) => path.startsWith(prefix))?.[1] ?? [];
      documentKeyScope(key, operation);
      documentErrors(operation);
      optionalBody(operation);
      const example = operation.operationId === undefined ? undefined : SERVICE_EXAMPLES[operation.operationId];
      if (example) addExamples(operation, example);
    }
  }
  dropUnusedSchemas(doc as Document);
  return doc;
}

/** A body the route also takes as absent (its schema admits null) is not required. */
function optionalBody(operation: Operation): void {
  const schema = operation.requestBody?.content?.['application/json']?.schema as
    | { anyOf?: { type?: string }[] }
    | undefined;
  if (operation.requestBody && schema?.anyOf?.some((s) => s.type === 'null')) operation.requestBody.required = false;
}

/** 400 where input is validated, 401 where credentials are needed, each answer described. */
function documentErrors(operation: Operation): void {
  const responses = (operation.responses ??= {});
  const errorBody = (): Response => ({ content: { 'application/json': { schema: { $ref: ERROR_BODY_REF } } } });
  if ((operation.parameters?.length || operation.requestBody) && !responses['400']) responses['400'] = errorBody();
  if (operation.security?.some((requirement) => Object.keys(requirement).length > 0) && !responses['401'])
    responses['401'] = errorBody();
  if (operation['x-required-scope'] && !responses['403']) responses['403'] = errorBody();
  for (const [status, response] of Object.entries(responses)) {
    // Errors answer JSON whatever the success answer's type (a CSV export, a query's rows).
    const media = response.content && Object.values(response.content)[0];
    if (status.startsWith('4') && media && !response.content?.['application/json'])
      response.content = { 'application/json': media };
    if (response.description && response.description !== 'Default Response') continue;
    response.description = ERRORS[status] ?? STATUS_CODES[status] ?? status;
  }
}

function addExamples(operation: Operation, example: OperationExample): void {
  for (const parameter of operation.parameters ?? []) {
    const value = example.params?.[String(parameter.name)];
    if (value !== undefined) parameter.example = value;
  }
  const body = operation.requestBody?.content?.['application/json'];
  if (body && example.request !== undefined) body.example = example.request;
  const success = Object.entries(operation.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1];
  const media = success?.content?.['application/json'];
  if (media && example.response !== undefined) media.example = example.response;
}

/**
 * The zod provider registers an input and an output variant of every named schema; responses
 * refer to the output ones, so half the components would be dead weight for code generators.
 * Also used on parts of the document (the typed client's, scripts/openapi-document.ts).
 */
export function dropUnusedSchemas(doc: Document): void {
  const schemas = doc.components?.schemas;
  if (!schemas) return;
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/schemas/')) {
        const name = inner.slice('#/components/schemas/'.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(inner);
    }
  };
  visit(doc.paths);
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}
