// The fuzz test generated from /openapi.json: every documented operation gets a plausible request
// (valid credentials of every kind, real ids) and then hostile variants of it, one field at a time:
// NUL, lone surrogates and control characters, huge and empty strings, wrong types, numbers at
// their limits, deep nesting, huge arrays, odd keys, malformed JSON, wrong content types, path
// parameters in odd encodings. The service must never answer 5xx, and every 4xx must be the API's
// error body. Seeded, so a failure reproduces.
import { STATUS_CODES } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, serviceForFile } from './support/service.js';
import { ISO_UTC } from './support/error-body.js';
import {
  BASE,
  PLATFORM_HOST,
  UA,
  createApps,
  createCampaign,
  createDeepLink,
  tapToLanding,
} from './support/deep-links.js';
import {
  Sampler,
  deepArray,
  deepObject,
  encodeLoosely,
  leafPaths,
  objectPaths,
  replaceAt,
  seeded,
  type Json,
  type OpenApiDoc,
  type Operation,
} from './support/openapi-fuzz.js';

const SEED = 14;
/** The least hostile variants per operation the test accepts as coverage. */
const MIN_VARIANTS = 20;
const BODYLESS_BODY_VARIANTS = 6;
const RAW = '__raw_fragment__';

/** Strings no field should choke on: the service answers 2xx or a clean 4xx to each. */
const HOSTILE_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(300),
  '\ud800',
  'x\udfffy',
  '\udbff\u0000',
  'a\u0001b\u001fc',
  '\u001b[31mred',
  'line\nbreak',
  'tab\tcr\r',
  '\u007f\u0085\u009f',
  '\u2028\u2029',
  '\ufeff\uffff\ufffe',
  '',
  '   ',
  'x'.repeat(20_000),
  'NaN',
  '-1',
  '1e309',
  '9007199254740993',
  "'; drop table links;--",
  '%00%ZZ',
  '../../etc/passwd',
  '😀'.repeat(500),
  '\ud83d',
];

/** Applied to every string field, query and path parameter of every operation, one at a time. */
const EVERY_FIELD = ['\u0000', '\ud800', 'a\u0001b'];

interface FuzzRequest {
  variant: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

let doc: OpenApiDoc;
let credentials: Record<string, string>;
let known: Record<string, Json>;
let ids: { url: number; campaign: number; app: number };

// Every variant must reach validation, not the per-app limit.
const svc = serviceForFile({ SDK_RATE_LIMIT_PER_SECOND: '1000000000', PUBLIC_BASE_URL: BASE });

beforeAll(async () => {
  const org = await svc.createOrganization('Fuzz', 'ENTERPRISE');
  const victim = await svc.createOrganization('Fuzz victim', 'PRO');
  const addOns = await svc.admin('PUT', `/organizations/${org.id}/add-ons`, {
    userJourney: true,
    revenueAnalytics: true,
  });
  expect(addOns.statusCode, addOns.body).toBe(200);
  const apps = await createApps(svc, org, 'Fuzz');
  const url = await createDeepLink(svc, org, apps);
  const campaign = await createCampaign(svc, org, { originalUrl: 'https://example.com/c', iosAppId: apps.ios.id });
  // A live deep-link token, so the web SDK's operations get past the token to their other fields.
  const landing = await tapToLanding(svc, `/${url.shortCode}`, { ua: UA.iPhone });
  ids = { url: url.id, campaign: campaign.id, app: apps.ios.id };
  credentials = {
    // The service's own host: operator surfaces may answer only there.
    host: PLATFORM_HOST,
    'x-api-key': org.apiKey,
    authorization: `Bearer ${ADMIN_TOKEN}`,
    'x-app-id': String(apps.ios.id),
    'x-mobile-app-api-key': apps.ios.apiKey,
  };
  const session = await svc.inject({
    method: 'POST',
    url: '/api/v1/cross-platform/session/create',
    headers: credentials,
    payload: { platform: 'IOS' },
  });
  expect(session.statusCode, session.body).toBe(201);
  known = {
    sessionId: session.json().sessionId,
    externalUserId: 'member-1',
    appId: apps.ios.id,
    iosAppId: apps.ios.id,
    androidAppId: apps.android.id,
    urlId: ids.url,
    campaignId: ids.campaign,
    orgId: victim.id,
    keyId: 999_999,
    code: url.shortCode,
    shortCode: url.shortCode,
    alias: campaign.alias,
    campaignAlias: campaign.alias,
    appPath: apps.ios.path,
    customAlias: 'fuzz-new',
    token: landing.token,
  };
  const res = await svc.inject({ method: 'GET', url: '/openapi.json' });
  doc = res.json();
}, 120_000);

/** A path parameter that exists (destructive methods get one that does not). */
function pathValue(method: string, path: string, name: string): string {
  if (name !== 'id') return String(known[name] ?? 999_999);
  if (method === 'DELETE') return '999999';
  if (path.startsWith('/api/v1/service/urls/')) return String(ids.url);
  if (path.startsWith('/api/v1/service/campaigns/')) return String(ids.campaign);
  if (path.startsWith('/api/v1/service/mobile-apps/')) return String(ids.app);
  return '999999';
}

interface Base {
  method: string;
  path: string;
  pathParams: Record<string, string>;
  query: Record<string, string>;
  body: Json | undefined;
}

function buildUrl(base: Base, pathParams: Record<string, string>, query: Array<[string, string]>): string {
  const path = base.path.replace(/\{(\w+)\}/g, (_, name: string) => pathParams[name] ?? '');
  const qs = query.map(([k, v]) => `${k}=${v}`).join('&');
  return qs ? `${path}?${qs}` : path;
}

function encodedPathParams(base: Base): Record<string, string> {
  return Object.fromEntries(Object.entries(base.pathParams).map(([k, v]) => [k, encodeURIComponent(v)]));
}

function encodedQuery(base: Base): Array<[string, string]> {
  return Object.entries(base.query).map(([k, v]) => [k, encodeURIComponent(v)]);
}

function serialise(body: Json | undefined, raw?: { path: Array<string | number>; text: string }): string | undefined {
  if (raw) return JSON.stringify(replaceAt(body ?? {}, raw.path, RAW)).replace(JSON.stringify(RAW), raw.text);
  return body === undefined ? undefined : JSON.stringify(body);
}

/** The hostile variants of one operation. */
function variants(base: Base, rng: () => number): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  const url = buildUrl(base, encodedPathParams(base), encodedQuery(base));
  const json = { ...credentials, 'content-type': 'application/json' };
  const add = (variant: string, request: Omit<FuzzRequest, 'variant' | 'method'> & { method?: string }) =>
    out.push({ variant, method: request.method ?? base.method, ...request });
  const body = base.body ?? {};
  const pick = <T>(items: T[], n: number): T | undefined =>
    items.length ? items[(n + Math.floor(rng() * items.length)) % items.length] : undefined;

  const stringLeaves = leafPaths(body, (v) => typeof v === 'string');
  const anyLeaves = leafPaths(body, () => true);
  const numberLeaves = leafPaths(body, (v) => typeof v === 'number');
  const objects = objectPaths(body);
  const queryNames = Object.keys(base.query);
  const pathNames = Object.keys(base.pathParams);

  HOSTILE_STRINGS.forEach((text, n) => {
    const shown = JSON.stringify(text.length > 20 ? `${text.slice(0, 20)}…(${text.length})` : text);
    // One body string at a time (a leaf of the plausible body, else a new field).
    const leaf = pick(stringLeaves, n) ?? pick(anyLeaves, n) ?? ['fuzz'];
    add(`body.${leaf.join('.')}=${shown}`, { url, headers: json, payload: serialise(replaceAt(body, leaf, text)) });
    // One query parameter at a time, and an unknown one (its name hostile too).
    const name = pick(queryNames, n);
    if (name !== undefined) {
      const query = encodedQuery(base).map(([k, v]): [string, string] => [k, k === name ? encodeLoosely(text) : v]);
      add(`query.${name}=${shown}`, { url: buildUrl(base, encodedPathParams(base), query), headers: credentials });
    }
    if (n % 3 === 0)
      add(`query.<extra>=${shown}`, {
        url: buildUrl(base, encodedPathParams(base), [
          ...encodedQuery(base),
          [encodeLoosely(text.slice(0, 200)) || 'x', encodeLoosely(text)],
        ]),
        headers: credentials,
      });
    const param = pick(pathNames, n);
    if (param !== undefined) {
      const params = { ...encodedPathParams(base), [param]: encodeLoosely(text.slice(0, 2_000)) || '%20' };
      add(`params.${param}=${shown}`, {
        url: buildUrl(base, params, encodedQuery(base)),
        headers: base.body === undefined ? credentials : json,
        payload: serialise(base.body),
      });
    }
  });

  // The text that reached PostgreSQL and ClickHouse before: in every field, not a sample of them.
  for (const text of EVERY_FIELD) {
    const shown = JSON.stringify(text);
    for (const leaf of stringLeaves)
      add(`body.${leaf.join('.')}=${shown} (each)`, {
        url,
        headers: json,
        payload: serialise(replaceAt(body, leaf, text)),
      });
    for (const name of queryNames) {
      const query = encodedQuery(base).map(([k, v]): [string, string] => [k, k === name ? encodeLoosely(text) : v]);
      add(`query.${name}=${shown} (each)`, {
        url: buildUrl(base, encodedPathParams(base), query),
        headers: credentials,
      });
    }
    for (const param of pathNames) {
      const params = { ...encodedPathParams(base), [param]: encodeLoosely(text) };
      add(`params.${param}=${shown} (each)`, {
        url: buildUrl(base, params, encodedQuery(base)),
        headers: base.body === undefined ? credentials : json,
        payload: serialise(base.body),
      });
    }
  }

  // Path parameters in encodings a router may trip on.
  for (const [n, odd] of [
    '%',
    '%E0%A4%A',
    '%C0%80',
    '%ED%A0%80',
    '%FF%FE',
    '%2F..%2F',
    'a'.repeat(600),
    '%00',
  ].entries()) {
    const param = pick(pathNames, n);
    if (param === undefined) break;
    add(`params.${param}=raw ${odd.slice(0, 12)}`, {
      url: buildUrl(base, { ...encodedPathParams(base), [param]: odd }, encodedQuery(base)),
      headers: credentials,
    });
  }

  // Numbers at their limits and values of the wrong type.
  for (const [n, value] of [1e308, -1, 0, 2 ** 53 + 1, 1.5, -1e308].entries()) {
    const leaf = pick(numberLeaves, n) ?? pick(anyLeaves, n);
    if (leaf)
      add(`body.${leaf.join('.')}=${value}`, { url, headers: json, payload: serialise(replaceAt(body, leaf, value)) });
  }
  for (const [n, value] of ([123, true, {}, [], null, 'NaN'] as Json[]).entries()) {
    const leaf = pick(anyLeaves, n) ?? ['fuzz'];
    add(`body.${leaf.join('.')}=${JSON.stringify(value)}`, {
      url,
      headers: json,
      payload: serialise(replaceAt(body, leaf, value)),
    });
  }
  for (const raw of ['null', '[]', '"text"', '42', 'true']) add(`body=${raw}`, { url, headers: json, payload: raw });

  // Nesting, width and length.
  const nest = pick(objects, 0) ?? [];
  add(`body.${nest.join('.') || '<root>'}.deep=object×5000`, {
    url,
    headers: json,
    payload: serialise(body, { path: [...nest, 'deep'], text: deepObject(5_000) }),
  });
  add('body.properties=object×5000', {
    url,
    headers: json,
    payload: serialise(body, { path: ['properties'], text: deepObject(5_000) }),
  });
  add('body=array×20000', { url, headers: json, payload: deepArray(20_000) });
  add('body=object×20', {
    url,
    headers: json,
    payload: serialise(body, { path: ['properties'], text: deepObject(20) }),
  });
  add('body.huge=array of 20000', {
    url,
    headers: json,
    payload: serialise(
      replaceAt(
        body,
        pick(anyLeaves, 1) ?? ['huge'],
        Array.from({ length: 20_000 }, (_, i) => i),
      ),
    ),
  });
  add('body.properties=5000 keys', {
    url,
    headers: json,
    payload: serialise(
      replaceAt(body, ['properties'], Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i]))),
    ),
  });

  // Odd keys: NUL, a lone surrogate, prototype names.
  for (const key of ['\u0000', '\ud800', 'a\nb', '__proto__', 'constructor']) {
    const at = pick(objects, key.length) ?? [];
    const target = at.length
      ? // biome-ignore lint/suspicious/noExplicitAny: walks a generated body of any shape.
        replaceAt(body, at, { ...(at.reduce<any>((o, k) => o?.[k], body) ?? {}), [key]: { x: '\u0000' } })
      : { ...(body as object), [key]: { x: 1 } };
    add(`body key ${JSON.stringify(key)}`, { url, headers: json, payload: JSON.stringify(target) });
    add(`body.properties key ${JSON.stringify(key)}`, {
      url,
      headers: json,
      payload: serialise(replaceAt(body, ['properties'], { [key]: 'v' })),
    });
  }

  // Broken JSON and content types.
  for (const raw of ['{"a":', '{"a":1}}', '{a:1}', '\u0000', '{"a":"\\ud800"}', '\ufeff{}'])
    add(`json ${JSON.stringify(raw)}`, { url, headers: json, payload: raw });
  add('json invalid UTF-8', {
    url,
    headers: json,
    payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
  });
  for (const type of [
    'text/plain',
    'application/xml',
    'multipart/form-data; boundary=x',
    'application/json; charset=utf-16',
    'application/x-www-form-urlencoded',
    '\u0000',
  ]) {
    add(`content-type ${JSON.stringify(type)}`, {
      url,
      headers: { ...credentials, 'content-type': type.replace('\u0000', 'a/b') },
      payload: serialise(body) ?? '{}',
    });
  }
  add('no content-type with a body', { url, headers: credentials, payload: serialise(body) ?? '{}' });
  if (base.body !== undefined) add('no body', { url, headers: credentials });
  if (base.body !== undefined) return out;
  // An operation without a body: a body is noise to it, so a sample of body variants suffices
  // (each still runs the whole operation; its query and path variants are where its input is).
  const bodyVariant = (r: FuzzRequest) => /^(body|json|content-type|no content-type)/.test(r.variant);
  const others = out.filter((r) => !bodyVariant(r));
  const bodies = out.filter(bodyVariant);
  const keep = Math.max(BODYLESS_BODY_VARIANTS, MIN_VARIANTS - others.length);
  return [
    ...others,
    ...bodies.filter((_, i) => i % Math.max(1, Math.floor(bodies.length / keep)) === 0).slice(0, keep),
  ];
}

function baseOf(path: string, method: string, op: Operation, sampler: Sampler): Base {
  const pathParams: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const p of op.parameters ?? []) {
    if (p.in === 'path') pathParams[p.name] = pathValue(method, path, p.name);
    if (p.in === 'query') {
      const v = sampler.sample(p.schema, p.name);
      if (v !== null && typeof v !== 'object') query[p.name] = String(v);
    }
  }
  const schema = op.requestBody?.content['application/json']?.schema;
  return { method, path, pathParams, query, body: schema ? sampler.sample(schema) : undefined };
}

/** What is wrong with an answer, or undefined when it is acceptable. */
function fault(status: number, headers: Record<string, unknown>, text: string): string | undefined {
  if (status >= 500) return `${status} ${text.slice(0, 200)}`;
  if (status < 400) return undefined;
  if (!String(headers['content-type']).includes('application/json'))
    return `${status} not JSON: ${String(headers['content-type'])} ${text.slice(0, 100)}`;
  // biome-ignore lint/suspicious/noExplicitAny: an error body of unknown shape, checked field by field below.
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return `${status} unparsable body ${text.slice(0, 100)}`;
  }
  const keys = Object.keys(body ?? {})
    .sort()
    .join(',');
  // A 400 adds `details` (one {field, message} per refused field); no other status has it.
  const expected =
    status === 400 ? 'code,details,error,message,status,timestamp' : 'code,error,message,status,timestamp';
  if (keys !== expected) return `${status} body keys ${keys}: ${text.slice(0, 150)}`;
  if (
    status === 400 &&
    !(
      Array.isArray(body.details) &&
      body.details.every(
        (d: { field?: unknown; message?: unknown }) => typeof d.field === 'string' && typeof d.message === 'string',
      )
    )
  ) {
    return `${status} malformed details ${text.slice(0, 150)}`;
  }
  if (
    body.status !== status ||
    body.error !== STATUS_CODES[status] ||
    typeof body.message !== 'string' ||
    typeof body.code !== 'string' ||
    !ISO_UTC.test(body.timestamp)
  ) {
    return `${status} malformed error body ${text.slice(0, 150)}`;
  }
  return undefined;
}

describe('every operation of /openapi.json against hostile input', () => {
  it('never answers 5xx and always answers 4xx with the spec error body', async () => {
    const sampler = new Sampler(doc, known);
    const rng = seeded(SEED);
    const counts = { requests: 0, operations: 0, ok: 0, client: 0, server: 0 };
    const perOperation: number[] = [];
    const faults = new Map<string, string[]>();
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const base = baseOf(path, method.toUpperCase(), op, sampler);
        const list = variants(base, rng);
        counts.operations++;
        perOperation.push(list.length);
        for (const request of list) {
          const res = await svc.inject({
            method: request.method as 'GET',
            url: request.url,
            // An API client's Accept: browser targets such as /sso/callback answer JSON to it.
            headers: { accept: 'application/json', ...request.headers },
            ...(request.payload === undefined ? {} : { payload: request.payload }),
          });
          counts.requests++;
          if (res.statusCode >= 500) counts.server++;
          else if (res.statusCode >= 400) counts.client++;
          else counts.ok++;
          const problem = fault(res.statusCode, res.headers, res.body);
          if (problem) {
            const key = `${request.method} ${path}`;
            faults.set(key, [...(faults.get(key) ?? []), `[${request.variant}] ${problem}`]);
          }
        }
      }
    }
    console.log(
      `fuzz /openapi.json (seed ${SEED}): ${counts.requests} requests, ${counts.operations} operations ` +
        `(${Math.min(...perOperation)}-${Math.max(...perOperation)} variants each), 2xx/3xx ${counts.ok}, 4xx ${counts.client}, 5xx ${counts.server}; ` +
        `operations with a fault: ${faults.size}`,
    );
    const report = [...faults].map(([op, list]) => `${op} (${list.length}): ${list.slice(0, 3).join(' | ')}`);
    if (report.length) console.log(report.join('\n'));
    expect(Math.min(...perOperation)).toBeGreaterThanOrEqual(MIN_VARIANTS);
    expect(counts.operations).toBeGreaterThanOrEqual(80);
    expect(report).toEqual([]);
  }, 600_000);
});
