// The scope each operation a Service API key can call needs, in one table: the server checks it on
// every call (auth.ts) and the OpenAPI document states it on each operation (openapi.ts). Keys are
// `METHOD path` in the document's form, as OPERATION_IDS has them. Every GET needs a `:read`
// scope and every other method a `:write` one, so a key with `read` reads everything and writes
// nothing (test/unit/key-scopes.test.ts holds the table to it).
import { API_KEY_SCOPES, type OperationScope, scopesGrant } from '../../core/access/api-key-scopes.js';

const SERVICE = '/api/v1/service';

const SERVICE_SCOPES: Record<string, OperationScope> = {
  'GET /usage': 'account:read',
  // Short URLs, their tags and imports
  'POST /urls': 'links:write',
  'GET /urls': 'links:read',
  'GET /urls/{id}': 'links:read',
  'PUT /urls/{id}': 'links:write',
  'DELETE /urls/{id}': 'links:write',
  'GET /urls/{id}/qr': 'links:read',
  'POST /urls/bulk': 'links:write',
  'PATCH /urls/bulk': 'links:write',
  'DELETE /urls/bulk': 'links:write',
  'GET /urls/export': 'links:read',
  'POST /urls/import': 'links:write',
  'GET /tags': 'links:read',
  'POST /tags': 'links:write',
  'PUT /tags/{id}': 'links:write',
  'DELETE /tags/{id}': 'links:write',
  'POST /imports': 'links:write',
  'POST /imports/csv': 'links:write',
  'GET /imports': 'links:read',
  'GET /imports/{id}': 'links:read',
  'POST /imports/{id}/cancel': 'links:write',
  // Campaigns
  'GET /campaigns/export': 'campaigns:read',
  'POST /campaigns': 'campaigns:write',
  'GET /campaigns': 'campaigns:read',
  'GET /campaigns/{id}': 'campaigns:read',
  'PUT /campaigns/{id}': 'campaigns:write',
  'DELETE /campaigns/{id}': 'campaigns:write',
  // Mobile apps
  'POST /mobile-apps': 'apps:write',
  'GET /mobile-apps': 'apps:read',
  'GET /mobile-apps/{id}': 'apps:read',
  'PUT /mobile-apps/{id}': 'apps:write',
  'DELETE /mobile-apps/{id}': 'apps:write',
  'POST /mobile-apps/{id}/api-key': 'apps:write',
  'POST /mobile-apps/{id}/identity-verification': 'apps:write',
  'DELETE /mobile-apps/{id}/identity-verification': 'apps:write',
  // Custom domains
  'GET /custom-domains': 'domains:read',
  'GET /custom-domains/verified': 'domains:read',
  'GET /custom-domains/{id}': 'domains:read',
  'POST /custom-domains/{id}/deletion-request': 'domains:write',
  'DELETE /custom-domains/{id}/deletion-request': 'domains:write',
  // Statistics; sharing them publicly is writing
  'GET /urls/{id}/stats': 'statistics:read',
  'GET /campaigns/{id}/stats': 'statistics:read',
  'POST /urls/{id}/share': 'statistics:write',
  'DELETE /urls/{id}/share': 'statistics:write',
  'GET /urls/{id}/app-install-stats': 'statistics:read',
  'GET /campaigns/{id}/app-install-stats': 'statistics:read',
  'GET /mobile-apps/{id}/install-stats': 'statistics:read',
  'GET /mobile-apps/{id}/deferred-match-stats': 'statistics:read',
  // The organization's webhook and its delivery log
  'GET /webhook': 'webhooks:read',
  'PUT /webhook': 'webhooks:write',
  'DELETE /webhook': 'webhooks:write',
  'POST /webhook/secret': 'webhooks:write',
  'GET /webhook/deliveries': 'webhooks:read',
  'GET /webhook/deliveries/{id}': 'webhooks:read',
  'POST /webhook/deliveries/{id}/redeliver': 'webhooks:write',
  'POST /webhook/test': 'webhooks:write',
  // Identified users
  'GET /users': 'users:read',
  'GET /users/{externalUserId}': 'users:read',
  'GET /users/{externalUserId}/consent-history': 'users:read',
};

/** The user-journey statistics, which take a Service API key as well as an app's credentials. */
const JOURNEY_SCOPES: Record<string, OperationScope> = {
  'GET /api/v1/cross-platform/stats/dashboard': 'statistics:read',
  'GET /api/v1/cross-platform/stats/summary': 'statistics:read',
  'GET /api/v1/cross-platform/stats/daily': 'statistics:read',
  'GET /api/v1/cross-platform/stats/sessions/summary': 'statistics:read',
  'GET /api/v1/cross-platform/stats/sessions/by-platform': 'statistics:read',
  'GET /api/v1/cross-platform/stats/sessions/by-utm-source': 'statistics:read',
  'GET /api/v1/cross-platform/stats/sessions/list': 'statistics:read',
  'GET /api/v1/cross-platform/stats/transitions/summary': 'statistics:read',
  'GET /api/v1/cross-platform/stats/transitions/trend': 'statistics:read',
};

/** Every operation a Service API key may call, by `METHOD path` (the document's form), with its scope. */
export const KEY_SCOPES: Readonly<Record<string, OperationScope>> = {
  ...Object.fromEntries(
    Object.entries(SERVICE_SCOPES).map(([route, scope]) => {
      const [method, path] = route.split(' ');
      return [`${method} ${SERVICE}${path}`, scope];
    }),
  ),
  ...JOURNEY_SCOPES,
};

/** Fastify's `/urls/:id` as the document writes it, `/urls/{id}`. */
const documentPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * The scope a call needs, from its method and its route's URL (`request.routeOptions.url`); `null`
 * for a route the table lacks (full-access keys only); `undefined` for no route (a 404).
 */
export function keyScopeOf(method: string, routeUrl: string | undefined): OperationScope | null | undefined {
  if (routeUrl === undefined) return undefined;
  // HEAD is answered by the GET route.
  return KEY_SCOPES[`${method === 'HEAD' ? 'GET' : method} ${documentPath(routeUrl)}`] ?? null;
}

interface DocumentedOperation {
  description?: string;
  'x-required-scope'?: string;
}

/**
 * States an operation's scope in the OpenAPI document: `x-required-scope`, and a sentence of its
 * description. Not as roles of its X-API-KEY security requirement: to a client generated from an
 * earlier document that reads as a different requirement, though every key it holds still works.
 * `key` is `METHOD path`; an operation no key calls is left alone.
 */
export function documentKeyScope(key: string, operation: DocumentedOperation): void {
  const scope = KEY_SCOPES[key];
  if (!scope) return;
  operation['x-required-scope'] = scope;
  const granting = API_KEY_SCOPES.filter((held) => scopesGrant([held], scope)).map((held) => `\`${held}\``);
  const sentence = `Service API key scope: \`${scope}\` (granted by ${granting.join(', ')}, or a key without scopes).`;
  operation.description = operation.description ? `${operation.description}\n\n${sentence}` : sentence;
}
