// Service API key scopes without HTTP: which scopes a key's scopes grant, the refusal naming the
// scope, and the table of the scope each operation needs (GETs read, every other method writes),
// as the server and the OpenAPI document read it.
import { describe, expect, it } from 'vitest';
import {
  API_KEY_SCOPES,
  type ApiKeyScope,
  isApiKeyScope,
  type OperationScope,
  orderedScopes,
  requireScope,
  scopesGrant,
} from '../../src/core/access/api-key-scopes.js';
import { documentKeyScope, KEY_SCOPES, keyScopeOf } from '../../src/api/service/key-scopes.js';
import { DomainError } from '../../src/shared/errors.js';

describe('what a key’s scopes grant', () => {
  type Needed = OperationScope | null;
  it.each<{ held: ApiKeyScope[]; grants: Needed[]; refuses: Needed[] }>([
    // No scopes: full access, even to an operation without a scope of its own (null).
    { held: [], grants: ['links:write', 'statistics:read', null], refuses: [] },
    // `read`: every read, no write.
    {
      held: ['read'],
      grants: ['links:read', 'statistics:read', 'users:read', 'account:read'],
      refuses: ['links:write', 'statistics:write', null],
    },
    // A resource's write includes its read, and nothing of another resource.
    { held: ['links:write'], grants: ['links:write', 'links:read'], refuses: ['statistics:read', 'campaigns:write'] },
    { held: ['links:read'], grants: ['links:read'], refuses: ['links:write', 'apps:read'] },
    { held: ['statistics:read'], grants: ['statistics:read'], refuses: ['statistics:write', 'links:read'] },
    { held: ['statistics:write'], grants: ['statistics:read', 'statistics:write'], refuses: ['users:read'] },
    // Several scopes: any one that grants it.
    { held: ['links:read', 'campaigns:write'], grants: ['campaigns:read', 'links:read'], refuses: ['links:write'] },
    { held: ['read', 'links:write'], grants: ['links:write', 'apps:read'], refuses: ['apps:write'] },
    // A stored scope this version does not know grants nothing.
    { held: ['webhooks:admin' as ApiKeyScope], grants: [], refuses: ['links:read', null] },
  ])('$held grants $grants and refuses $refuses', ({ held, grants, refuses }) => {
    for (const needed of grants) expect(scopesGrant(held, needed), String(needed)).toBe(true);
    for (const needed of refuses) expect(scopesGrant(held, needed), String(needed)).toBe(false);
  });

  it('refuses with 403 API_KEY_SCOPE_MISSING naming the scope as the field `scope`', () => {
    const err = (() => {
      try {
        requireScope(['links:write'], 'statistics:read');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ kind: 'forbidden', code: 'API_KEY_SCOPE_MISSING' });
    expect((err as DomainError).message).toContain('statistics:read');
    expect((err as DomainError).details).toMatchObject({ field: 'scope', problem: 'statistics:read is required' });
    expect(() => requireScope(['links:write'], 'links:read')).not.toThrow();
  });

  it('knows its scopes, and lists a key’s in one order without repeats', () => {
    expect(API_KEY_SCOPES[0]).toBe('read');
    expect(API_KEY_SCOPES).toContain('links:write');
    expect(API_KEY_SCOPES).not.toContain('users:write');
    expect(isApiKeyScope('statistics:read')).toBe(true);
    expect(isApiKeyScope('admin')).toBe(false);
    expect(orderedScopes(['statistics:read', 'links:read', 'statistics:read', 'read'])).toEqual([
      'read',
      'links:read',
      'statistics:read',
    ]);
  });
});

describe('the scope of each operation', () => {
  const routes = Object.entries(KEY_SCOPES).map(([route, scope]) => {
    const [method, path] = route.split(' ') as [string, string];
    return { route, method, path, scope };
  });

  it('asks a read scope of every GET and a write scope of every other method', () => {
    const wrong = routes.filter(({ method, scope }) => (method === 'GET') !== scope.endsWith(':read'));
    expect(wrong).toEqual([]);
    // So the contract's read-only key: every GET, nothing else.
    for (const { method, scope } of routes) expect(scopesGrant(['read'], scope)).toBe(method === 'GET');
  });

  it('uses only scopes a key can hold, and every operation scope somewhere', () => {
    const used = new Set(routes.map((r) => r.scope));
    expect([...used].filter((s) => !isApiKeyScope(s))).toEqual([]);
    expect(API_KEY_SCOPES.filter((s) => s !== 'read' && !used.has(s as OperationScope))).toEqual([]);
  });

  it.each([
    { method: 'GET', url: '/api/v1/service/urls', scope: 'links:read' },
    { method: 'HEAD', url: '/api/v1/service/urls/:id', scope: 'links:read' },
    { method: 'POST', url: '/api/v1/service/urls', scope: 'links:write' },
    { method: 'DELETE', url: '/api/v1/service/urls/:id', scope: 'links:write' },
    { method: 'GET', url: '/api/v1/service/urls/:id/stats', scope: 'statistics:read' },
    { method: 'POST', url: '/api/v1/service/urls/:id/share', scope: 'statistics:write' },
    { method: 'GET', url: '/api/v1/service/users/:externalUserId', scope: 'users:read' },
    { method: 'GET', url: '/api/v1/cross-platform/stats/daily', scope: 'statistics:read' },
    { method: 'GET', url: '/api/v1/service/usage', scope: 'account:read' },
    { method: 'GET', url: '/api/v1/service/webhook/deliveries/:id', scope: 'webhooks:read' },
    { method: 'POST', url: '/api/v1/service/webhook/deliveries/:id/redeliver', scope: 'webhooks:write' },
    { method: 'DELETE', url: '/api/v1/service/webhook', scope: 'webhooks:write' },
    // A route the table lacks: full-access keys only; no route at all: the 404 answers.
    { method: 'POST', url: '/api/v1/service/usage', scope: null },
    { method: 'GET', url: undefined, scope: undefined },
  ])('$method $url needs $scope', ({ method, url, scope }) => {
    expect(keyScopeOf(method, url)).toBe(scope);
  });

  it('states the scope in the document: the extension and the description', () => {
    const op: Parameters<typeof documentKeyScope>[1] = { description: 'Lists links.' };
    documentKeyScope('GET /api/v1/service/urls', op);
    expect(op['x-required-scope']).toBe('links:read');
    expect(op.description).toBe(
      'Lists links.\n\nService API key scope: `links:read` (granted by `read`, `links:read`, `links:write`, or a key without scopes).',
    );
    const other = {};
    documentKeyScope('GET /console/api/session', other);
    expect(other).toEqual({});
  });
});
