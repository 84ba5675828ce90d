// The OpenAPI document a started service serves (GET /openapi.json), held to what client generators
// and linters expect: a unique camelCase operationId and a summary on every operation, exactly one
// tag from the declared tag set, security stated everywhere (`security: []` where none is needed),
// the error body on every 4xx and a 400 / 401 wherever input is validated / credentials are needed,
// examples on every Service API operation that match their schemas, and no unused component.
// Each rule lists the operations that break it.
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OPERATION_IDS } from '../src/api/openapi.js';
import { SERVICE_EXAMPLES } from '../src/api/service/openapi-examples.js';
import { serviceForFile } from './support/service.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is read field by field.
type Json = Record<string, any>;

interface Operation {
  /** `METHOD /path`, as failure messages name it. */
  name: string;
  path: string;
  op: Json;
}

let doc: Json;
let operations: Operation[];

const svc = serviceForFile();

beforeAll(async () => {
  const res = await svc.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode, res.body).toBe(200);
  doc = res.json();
  operations = Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, path, op })),
  );
}, 120_000);

const offenders = (test: (o: Operation) => string | false | undefined): string[] =>
  operations.flatMap((o) => {
    const problem = test(o);
    return problem ? [`${o.name}: ${problem}`] : [];
  });

const isService = (o: Operation) => o.path.startsWith('/api/v1/service/');
const json = (part: Json | undefined): Json | undefined => part?.content?.['application/json'];
const success = (o: Operation): [string, Json] | undefined =>
  Object.entries(o.op.responses as Record<string, Json>).find(([status]) => status.startsWith('2'));

/** Whether `value` matches `schema` (refs to components resolved), as zod reads JSON Schema 2020-12. */
function matches(schema: Json, value: unknown): string | undefined {
  const local = (v: unknown): Json => JSON.parse(JSON.stringify(v).replaceAll('"#/components/schemas/', '"#/$defs/'));
  const zod = z.fromJSONSchema({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...local(schema),
    $defs: local(doc.components?.schemas ?? {}),
  });
  const result = zod.safeParse(value);
  return result.success
    ? undefined
    : result.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ');
}

describe('the OpenAPI document served at /openapi.json', () => {
  it('documents the whole API under its licence', () => {
    expect(operations.length).toBeGreaterThanOrEqual(150);
    expect(doc.info.license).toEqual({ name: 'Apache-2.0', identifier: 'Apache-2.0' });
  });

  it('gives every operation a unique camelCase operationId', () => {
    expect(
      offenders(({ op }) => !/^[a-z][a-zA-Z0-9]*$/.test(op.operationId ?? '') && `operationId ${op.operationId}`),
      'operations without a camelCase operationId',
    ).toEqual([]);
    const seen = new Map<string, string>();
    expect(
      offenders(({ name, op }) => {
        const first = seen.get(op.operationId);
        seen.set(op.operationId, first ?? name);
        return first !== undefined && `operationId ${op.operationId} is also ${first}'s`;
      }),
      'duplicate operationIds',
    ).toEqual([]);
  });

  it('names no operation in the operationId and example tables that the app no longer serves', () => {
    const served = new Set(operations.map((o) => o.name));
    expect(
      Object.keys(OPERATION_IDS).filter((name) => !served.has(name)),
      'stale operationId table entries',
    ).toEqual([]);
    const serviceIds = new Set(operations.filter(isService).map((o) => o.op.operationId));
    expect(
      Object.keys(SERVICE_EXAMPLES).filter((id) => !serviceIds.has(id)),
      'examples of no Service API operation',
    ).toEqual([]);
  });

  it('keeps the names clients are generated with', () => {
    const idOf = (name: string) => operations.find((o) => o.name === name)?.op.operationId;
    expect({
      create: idOf('POST /api/v1/service/urls'),
      list: idOf('GET /api/v1/service/urls'),
      stats: idOf('GET /api/v1/service/urls/{id}/stats'),
      campaign: idOf('PUT /api/v1/service/campaigns/{id}'),
      match: idOf('GET /api/v1/sdk/mobile/deeplink/match'),
      identify: idOf('POST /api/v1/cross-platform/identify'),
    }).toEqual({
      create: 'createShortUrl',
      list: 'listShortUrls',
      stats: 'getShortUrlStats',
      campaign: 'updateCampaign',
      match: 'matchDeepLink',
      identify: 'identifyUser',
    });
  });

  it('gives every operation a summary', () => {
    expect(
      offenders(({ op }) => !(typeof op.summary === 'string' && op.summary.trim()) && 'no summary'),
      'operations without a summary',
    ).toEqual([]);
  });

  it('tags every operation with exactly one tag of the declared tag set, each declared tag described and used', () => {
    const declared = (doc.tags ?? []) as Json[];
    const names = declared.map((t) => t.name as string);
    expect(new Set(names).size, 'tags declared twice').toBe(names.length);
    expect(
      declared.filter((t) => !(typeof t.description === 'string' && t.description.trim())).map((t) => t.name),
      'tags without a description',
    ).toEqual([]);
    expect(
      offenders(({ op }) => {
        const tags = (op.tags ?? []) as string[];
        if (tags.length !== 1) return `${tags.length} tags (${tags.join(', ')})`;
        return !names.includes(tags[0]!) && `undeclared tag ${tags[0]}`;
      }),
      'operations without exactly one declared tag',
    ).toEqual([]);
    const used = new Set(operations.flatMap(({ op }) => op.tags ?? []));
    expect(
      names.filter((name) => !used.has(name)),
      'declared tags no operation carries',
    ).toEqual([]);
  });

  it('states the security of every operation with declared schemes', () => {
    const schemes = Object.keys(doc.components?.securitySchemes ?? {});
    expect(
      offenders(({ op }) => {
        if (!Array.isArray(op.security)) return 'no security statement';
        const unknown = (op.security as Json[]).flatMap((r) => Object.keys(r)).filter((s) => !schemes.includes(s));
        return unknown.length > 0 && `undeclared schemes ${unknown.join(', ')}`;
      }),
      'operations whose security is not stated',
    ).toEqual([]);
    const name = (n: string) => operations.find((o) => o.name === n)?.op.security;
    expect(name('POST /api/v1/service/urls')).toEqual([{ apiKey: [] }]);
    expect(name('GET /api/v1/sdk/mobile/deeplink/match')).toEqual([{ appId: [], mobileAppKey: [] }]);
    expect(name('GET /healthz')).toEqual([]);
  });

  it('names the scope a Service API key needs on every operation a key can call, with its 403', () => {
    const scopes = doc.components.schemas.ApiKeyScope.enum as string[];
    const keyed = (op: Json) => (op.security as Json[]).some((r) => 'apiKey' in r);
    expect(
      operations.filter(isService).filter((o) => !keyed(o.op)),
      'Service API operations without the key',
    ).toEqual([]);
    expect(
      offenders(({ op }) => {
        if (!keyed(op)) return op['x-required-scope'] !== undefined && 'a scope but no key';
        const scope = op['x-required-scope'];
        if (!scopes.includes(scope) || scope === 'read') return `x-required-scope ${scope}`;
        if (!String(op.description).includes(`\`${scope}\``)) return 'description does not name the scope';
        return !op.responses['403'] && 'documents no 403';
      }),
      'operations whose key scope is not stated',
    ).toEqual([]);
    const scopeOf = (n: string) => operations.find((o) => o.name === n)?.op['x-required-scope'];
    expect([
      scopeOf('GET /api/v1/service/urls'),
      scopeOf('DELETE /api/v1/service/urls/{id}'),
      scopeOf('GET /api/v1/service/urls/{id}/stats'),
      scopeOf('GET /api/v1/cross-platform/stats/summary'),
    ]).toEqual(['links:read', 'links:write', 'statistics:read', 'statistics:read']);
  });

  it('documents the error body on every 4xx, a 400 wherever input is validated and a 401 wherever credentials are needed', () => {
    expect(
      offenders(({ op }) => {
        const wrong = Object.entries(op.responses as Record<string, Json>)
          .filter(
            ([status, response]) =>
              status.startsWith('4') && json(response)?.schema?.$ref !== '#/components/schemas/ErrorBody',
          )
          .map(([status]) => status);
        return wrong.length > 0 && `${wrong.join(', ')} without the error body`;
      }),
      'error answers without the error body',
    ).toEqual([]);
    expect(
      offenders(
        ({ op }) =>
          (op.parameters?.length || op.requestBody) && !op.responses['400'] && 'takes input but documents no 400',
      ),
      'operations missing a 400',
    ).toEqual([]);
    expect(
      offenders(
        ({ op }) =>
          (op.security as Json[]).some((r) => Object.keys(r).length > 0) &&
          !op.responses['401'] &&
          'needs credentials but documents no 401',
      ),
      'operations missing a 401',
    ).toEqual([]);
    expect(
      offenders(({ op }) => {
        const vague = Object.entries(op.responses as Record<string, Json>)
          .filter(([, r]) => !r.description || r.description === 'Default Response')
          .map(([s]) => s);
        return vague.length > 0 && `answers ${vague.join(', ')} not described`;
      }),
      'answers without a description',
    ).toEqual([]);
  });

  it('shows a request and a response example on every Service API operation, each matching its schema', () => {
    const service = operations.filter(isService);
    expect(service.length).toBeGreaterThanOrEqual(34);
    const problems = service.flatMap((o) => {
      const found: string[] = [];
      for (const p of (o.op.parameters ?? []) as Json[]) {
        if (p.in === 'path' && p.example === undefined) found.push(`path parameter ${p.name} has no example`);
        if (p.example !== undefined && p.schema) {
          const wrong = matches(p.schema, p.example);
          if (wrong) found.push(`parameter ${p.name} example: ${wrong}`);
        }
      }
      const body = json(o.op.requestBody);
      if (body && body.example === undefined) found.push('request body has no example');
      if (body?.example !== undefined) {
        const wrong = matches(body.schema, body.example);
        if (wrong) found.push(`request example: ${wrong}`);
      }
      const [status, response] = success(o) ?? [];
      const media = json(response);
      if (media && media.example === undefined) found.push(`${status} answer has no example`);
      if (media?.example !== undefined) {
        const wrong = matches(media.schema, media.example);
        if (wrong) found.push(`${status} example: ${wrong}`);
      }
      return found.map((f) => `${o.name}: ${f}`);
    });
    expect(problems, 'Service API operations with a missing or wrong example').toEqual([]);
  });

  it('leaves the console API and its tag out of the reference page (/docs), which is for API clients', async () => {
    const page = (await svc.inject({ method: 'GET', url: '/docs/json' })).json() as Json;
    expect(Object.keys(page.paths).filter((path) => path.startsWith('/console/'))).toEqual([]);
    expect(Object.keys(page.paths)).toContain('/api/v1/service/urls');
    const tags = (page.tags as Json[]).map((t) => t.name);
    expect(tags).not.toContain('console');
    expect(tags).toContain('service: short URLs');
  });

  it('keeps no component schema that nothing refers to', () => {
    const text = JSON.stringify(doc.paths) + JSON.stringify(doc.components?.schemas ?? {});
    const unused = Object.keys(doc.components?.schemas ?? {}).filter(
      (name) => !text.includes(`"#/components/schemas/${name}"`),
    );
    expect(unused, 'unused components').toEqual([]);
  });
});
