// Breaking changes of the OpenAPI document against the last released one (openapi/released/<version>.json):
// what would make a client written against the release fail, listed apart from additions and
// other compatible changes. test/openapi-breaking.test.ts runs it in CI.
//
//   npm run openapi:breaking                      today's document (built in-process) against the last release
//   npm run openapi:breaking -- old.json new.json two documents (files), such as a deployed service's
//   npm run openapi:release                       at a release: today's document becomes openapi/released/<package version>.json
//
// A request may no more ask than before (new required parameters or properties, removed ones,
// narrower types, enum values or limits, tighter security); an answer may no more promise less
// (removed success statuses, removed or no longer required properties, wider types). The console's
// own API (/console/) is left out: it ships with the console it serves, in the same release.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-document.js';

export const RELEASED_DIR = fileURLToPath(new URL('../openapi/released/', import.meta.url));

type Json = OpenApiDocument;

export type BreakingKind =
  | 'operation-removed'
  | 'security-tightened'
  | 'security-scheme-changed'
  | 'parameter-removed'
  | 'parameter-required'
  | 'request-body-required'
  | 'request-media-removed'
  | 'request-property-removed'
  | 'request-property-required'
  | 'request-type-narrowed'
  | 'request-enum-value-removed'
  | 'request-limit-tightened'
  | 'response-status-removed'
  | 'response-media-removed'
  | 'response-property-removed'
  | 'response-property-optional'
  | 'response-type-widened';

export type CompatibleKind =
  | 'operation-added'
  | 'security-loosened'
  | 'parameter-added'
  | 'parameter-optional'
  | 'request-property-added'
  | 'request-property-optional'
  | 'request-type-widened'
  | 'request-enum-value-added'
  | 'request-limit-loosened'
  | 'response-status-added'
  | 'response-status-removed'
  | 'response-property-added'
  | 'response-optional-property-removed'
  | 'response-property-required'
  | 'response-type-narrowed'
  | 'response-enum-value-added';

export interface Change<K extends string> {
  kind: K;
  /** `METHOD /path`, then where in the operation: `parameter query.size`, `request .url`, `200 .content[].title`. */
  where: string;
  detail: string;
}

export interface Comparison {
  breaking: Change<BreakingKind>[];
  /** Additions and other changes a client written against the release keeps working with. */
  compatible: Change<CompatibleKind>[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** A schema with its references resolved and its unions flattened: what a value may be. */
interface Shape {
  /** JSON types; `integer` is a kind of `number`; `any` when the schema says nothing. */
  types: Set<string>;
  /** Allowed values (JSON text), when the schema lists them (enum, const). */
  values: Set<string> | undefined;
  properties: Map<string, Json>;
  /** Properties every object variant requires. */
  required: Set<string>;
  items: Json[];
  additional: Json[];
  limits: Record<string, number>;
  /** `pattern` and `format` constraints, as `pattern …` / `format …`. */
  patterns: Set<string>;
}

const UPPER_LIMITS = ['maxLength', 'maxItems', 'maximum', 'exclusiveMaximum', 'maxProperties'];
const LOWER_LIMITS = ['minLength', 'minItems', 'minimum', 'exclusiveMinimum', 'minProperties'];

function resolve(doc: Json, schema: Json | undefined, seen = new Set<string>()): Json[] {
  if (!schema || typeof schema !== 'object') return [{}];
  if (typeof schema.$ref === 'string') {
    if (seen.has(schema.$ref)) return [{}];
    const name = schema.$ref.replace('#/components/schemas/', '');
    return resolve(doc, doc.components?.schemas?.[name], new Set([...seen, schema.$ref]));
  }
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return union.flatMap((variant: Json) => resolve(doc, variant, seen));
  if (Array.isArray(schema.allOf)) {
    // An intersection: one variant with every part's properties and requirements.
    const merged: Json = { properties: {}, required: [] };
    for (const part of schema.allOf.flatMap((p: Json) => resolve(doc, p, seen))) {
      Object.assign(merged.properties, part.properties);
      merged.required.push(...(part.required ?? []));
      for (const [key, value] of Object.entries(part))
        if (key !== 'properties' && key !== 'required') merged[key] = value;
    }
    return [merged];
  }
  return [schema];
}

function shapeOf(doc: Json, schema: Json | undefined): Shape {
  const variants = resolve(doc, schema);
  const shape: Shape = {
    types: new Set(),
    values: undefined,
    properties: new Map(),
    required: new Set(),
    items: [],
    additional: [],
    limits: {},
    patterns: new Set(),
  };
  let objectVariants = 0;
  const requiredCounts = new Map<string, number>();
  let listsValues = true;
  const values = new Set<string>();
  for (const v of variants) {
    const types: string[] = Array.isArray(v.type)
      ? v.type
      : typeof v.type === 'string'
        ? [v.type]
        : v.properties
          ? ['object']
          : 'const' in v || v.enum
            ? []
            : ['any'];
    const listed: unknown[] | undefined = 'const' in v ? [v.const] : Array.isArray(v.enum) ? v.enum : undefined;
    if (listed) {
      for (const value of listed) {
        values.add(JSON.stringify(value));
        if (types.length === 0)
          shape.types.add(value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value);
      }
    } else if (!(types.length === 1 && types[0] === 'null')) listsValues = false;
    else values.add('null');
    for (const t of types) shape.types.add(t);
    if (types.includes('object')) {
      objectVariants++;
      for (const [name, inner] of Object.entries((v.properties ?? {}) as Json))
        if (!shape.properties.has(name)) shape.properties.set(name, inner as Json);
      for (const name of (v.required ?? []) as string[]) requiredCounts.set(name, (requiredCounts.get(name) ?? 0) + 1);
      if (v.additionalProperties && typeof v.additionalProperties === 'object')
        shape.additional.push(v.additionalProperties);
    }
    if (v.items) shape.items.push(v.items);
    for (const key of [...UPPER_LIMITS, ...LOWER_LIMITS]) if (typeof v[key] === 'number') shape.limits[key] = v[key];
    if (typeof v.pattern === 'string') shape.patterns.add(`pattern ${v.pattern}`);
    if (typeof v.format === 'string') shape.patterns.add(`format ${v.format}`);
  }
  if (listsValues && values.size > 0) shape.values = values;
  for (const [name, count] of requiredCounts) if (count === objectVariants) shape.required.add(name);
  return shape;
}

const covers = (types: Set<string>, t: string) =>
  types.has('any') || types.has(t) || (t === 'integer' && types.has('number'));

interface Sink {
  breaking(kind: BreakingKind, where: string, detail: string): void;
  compatible(kind: CompatibleKind, where: string, detail: string): void;
}

/**
 * A request schema (`request`: the new one must accept whatever the old one did) or a response
 * schema (`response`: the new one must promise whatever the old one did).
 */
function compareSchemas(
  docs: [Json, Json],
  schemas: [Json | undefined, Json | undefined],
  side: 'request' | 'response',
  where: string,
  sink: Sink,
  depth = 0,
): void {
  if (depth > 24) return;
  const [before, after] = [shapeOf(docs[0], schemas[0]), shapeOf(docs[1], schemas[1])];
  const list = (types: Iterable<string>) => [...types].join(', ');

  const dropped = [...before.types].filter((t) => !covers(after.types, t));
  const gained = [...after.types].filter((t) => !covers(before.types, t));
  if (side === 'request') {
    if (dropped.length)
      sink.breaking('request-type-narrowed', where, `no longer accepts ${list(dropped)} (now ${list(after.types)})`);
    if (gained.length) sink.compatible('request-type-widened', where, `also accepts ${list(gained)}`);
  } else {
    if (gained.length)
      sink.breaking('response-type-widened', where, `may now be ${list(gained)} (was ${list(before.types)})`);
    if (dropped.length) sink.compatible('response-type-narrowed', where, `no longer ${list(dropped)}`);
  }

  if (before.values || after.values) {
    const removed = before.values ? [...before.values].filter((v) => !after.values?.has(v)) : [];
    const added = after.values ? [...after.values].filter((v) => !before.values?.has(v)) : [];
    if (side === 'request') {
      if (!before.values && after.values)
        sink.breaking('request-enum-value-removed', where, `now limited to ${[...after.values].join(', ')}`);
      else if (after.values && removed.length)
        sink.breaking('request-enum-value-removed', where, `no longer accepts ${removed.join(', ')}`);
      if (before.values && added.length)
        sink.compatible('request-enum-value-added', where, `also accepts ${added.join(', ')}`);
    } else {
      if (before.values && !after.values)
        sink.breaking('response-type-widened', where, `no longer limited to ${[...before.values].join(', ')}`);
      else if (before.values && added.length)
        sink.compatible(
          'response-enum-value-added',
          where,
          `may now be ${added.join(', ')}: clients should accept values they do not know`,
        );
    }
  }

  if (side === 'request') {
    for (const key of UPPER_LIMITS) {
      const [b, a] = [before.limits[key], after.limits[key]];
      if (a !== undefined && (b === undefined || a < b))
        sink.breaking('request-limit-tightened', where, `${key} ${b ?? 'none'} → ${a}`);
      else if (b !== undefined && (a === undefined || a > b))
        sink.compatible('request-limit-loosened', where, `${key} ${b} → ${a ?? 'none'}`);
    }
    for (const key of LOWER_LIMITS) {
      const [b, a] = [before.limits[key], after.limits[key]];
      if (a !== undefined && (b === undefined || a > b))
        sink.breaking('request-limit-tightened', where, `${key} ${b ?? 'none'} → ${a}`);
      else if (b !== undefined && (a === undefined || a < b))
        sink.compatible('request-limit-loosened', where, `${key} ${b} → ${a ?? 'none'}`);
    }
    const newPatterns = [...after.patterns].filter((p) => !before.patterns.has(p));
    if (newPatterns.length) sink.breaking('request-limit-tightened', where, newPatterns.join(', '));
  }

  if (covers(before.types, 'object') && covers(after.types, 'object')) {
    for (const [name, schema] of before.properties) {
      const at = `${where}.${name}`;
      const next = after.properties.get(name);
      if (next === undefined) {
        if (side === 'request') sink.breaking('request-property-removed', at, 'no longer accepted');
        else if (before.required.has(name)) sink.breaking('response-property-removed', at, 'no longer answered');
        else sink.compatible('response-optional-property-removed', at, 'an optional property no longer answered');
        continue;
      }
      if (side === 'request' && !before.required.has(name) && after.required.has(name))
        sink.breaking('request-property-required', at, 'now required');
      if (side === 'request' && before.required.has(name) && !after.required.has(name))
        sink.compatible('request-property-optional', at, 'now optional');
      if (side === 'response' && before.required.has(name) && !after.required.has(name))
        sink.breaking('response-property-optional', at, 'may now be missing');
      if (side === 'response' && !before.required.has(name) && after.required.has(name))
        sink.compatible('response-property-required', at, 'now always answered');
      compareSchemas(docs, [schema, next], side, at, sink, depth + 1);
    }
    for (const [name] of after.properties) {
      if (before.properties.has(name)) continue;
      const at = `${where}.${name}`;
      if (side === 'request' && after.required.has(name))
        sink.breaking('request-property-required', at, 'added as required');
      else if (side === 'request') sink.compatible('request-property-added', at, 'new optional property');
      else sink.compatible('response-property-added', at, 'new property');
    }
    if (before.additional[0] && after.additional[0])
      compareSchemas(docs, [before.additional[0], after.additional[0]], side, `${where}{*}`, sink, depth + 1);
  }
  if (before.items[0] && after.items[0])
    compareSchemas(docs, [before.items[0], after.items[0]], side, `${where}[]`, sink, depth + 1);
}

const requirementKey = (requirement: Record<string, string[]>) =>
  Object.entries(requirement)
    .map(([scheme, scopes]) => `${scheme}${scopes.length ? `(${[...scopes].sort().join(' ')})` : ''}`)
    .sort()
    .join(' + ') || 'none';

function compareSecurity(doc: [Json, Json], ops: [Json, Json], where: string, sink: Sink): void {
  const keys = (d: Json, op: Json) => {
    const requirements = (op.security ?? d.security ?? []) as Record<string, string[]>[];
    return new Set(requirements.length === 0 ? ['none'] : requirements.map(requirementKey));
  };
  const [before, after] = [keys(doc[0], ops[0]), keys(doc[1], ops[1])];
  for (const k of before)
    if (!after.has(k))
      sink.breaking('security-tightened', where, `no longer accepts ${k === 'none' ? 'calls without credentials' : k}`);
  for (const k of after)
    if (!before.has(k))
      sink.compatible('security-loosened', where, `also accepts ${k === 'none' ? 'calls without credentials' : k}`);
}

function compareParameters(docs: [Json, Json], ops: [Json, Json], where: string, sink: Sink): void {
  const byKey = (op: Json) => new Map(((op.parameters ?? []) as Json[]).map((p) => [`${p.in}.${p.name}`, p]));
  const [before, after] = [byKey(ops[0]), byKey(ops[1])];
  for (const [key, param] of before) {
    const next = after.get(key);
    const at = `${where} parameter ${key}`;
    if (!next) {
      sink.breaking('parameter-removed', at, 'no longer accepted');
      continue;
    }
    if (!param.required && next.required) sink.breaking('parameter-required', at, 'now required');
    if (param.required && !next.required) sink.compatible('parameter-optional', at, 'now optional');
    compareSchemas(docs, [param.schema, next.schema], 'request', at, sink);
  }
  for (const [key, param] of after) {
    if (before.has(key)) continue;
    const at = `${where} parameter ${key}`;
    if (param.required) sink.breaking('parameter-required', at, 'added as required');
    else sink.compatible('parameter-added', at, 'new optional parameter');
  }
}

function compareRequestBodies(docs: [Json, Json], ops: [Json, Json], where: string, sink: Sink): void {
  const [before, after] = [ops[0].requestBody as Json | undefined, ops[1].requestBody as Json | undefined];
  if (!after) {
    if (before) sink.breaking('request-media-removed', `${where} request`, 'no longer takes a body');
    return;
  }
  if (after.required && !before?.required)
    sink.breaking(
      'request-body-required',
      `${where} request`,
      before ? 'the body is now required' : 'added as required',
    );
  for (const [media, content] of Object.entries((before?.content ?? {}) as Json)) {
    const next = after.content?.[media];
    if (!next) sink.breaking('request-media-removed', `${where} request`, `no longer takes ${media}`);
    else
      compareSchemas(
        docs,
        [content.schema, next.schema],
        'request',
        `${where} request ${media === 'application/json' ? '' : `${media} `}body`,
        sink,
      );
  }
}

function compareResponses(docs: [Json, Json], ops: [Json, Json], where: string, sink: Sink): void {
  const [before, after] = [(ops[0].responses ?? {}) as Json, (ops[1].responses ?? {}) as Json];
  for (const [status, response] of Object.entries(before)) {
    const next = after[status];
    const success = status.startsWith('2');
    if (!next) {
      if (success) sink.breaking('response-status-removed', `${where} ${status}`, 'no longer answered');
      else sink.compatible('response-status-removed', `${where} ${status}`, 'error answer no longer documented');
      continue;
    }
    for (const [media, content] of Object.entries((response.content ?? {}) as Json)) {
      const nextContent = next.content?.[media];
      if (!nextContent) {
        if (success) sink.breaking('response-media-removed', `${where} ${status}`, `no longer answers ${media}`);
        continue;
      }
      compareSchemas(docs, [content.schema, nextContent.schema], 'response', `${where} ${status} body`, sink);
    }
  }
  for (const status of Object.keys(after))
    if (!(status in before)) sink.compatible('response-status-added', `${where} ${status}`, 'new answer');
}

const operationsOf = (doc: Json): Map<string, Json> => {
  const ops = new Map<string, Json>();
  for (const [p, item] of Object.entries((doc.paths ?? {}) as Json)) {
    if (p.startsWith('/console/')) continue;
    for (const method of METHODS)
      if (item[method])
        ops.set(`${method.toUpperCase()} ${p}`, {
          ...item[method],
          parameters: [...(item.parameters ?? []), ...(item[method].parameters ?? [])],
        });
  }
  return ops;
};

/** A credential scheme removed, or sent otherwise (another header name, place or type): every caller using it breaks. */
function compareSecuritySchemes(docs: [Json, Json], sink: Sink): void {
  const [before, after] = docs.map((d) => (d.components?.securitySchemes ?? {}) as Json) as [Json, Json];
  const form = (scheme: Json) =>
    JSON.stringify([
      scheme.type,
      scheme.in,
      scheme.name?.toLowerCase(),
      scheme.scheme?.toLowerCase(),
      scheme.bearerFormat,
    ]);
  for (const [name, scheme] of Object.entries(before)) {
    const next = after[name];
    if (!next) sink.breaking('security-scheme-changed', `security scheme ${name}`, 'removed');
    else if (form(scheme) !== form(next))
      sink.breaking('security-scheme-changed', `security scheme ${name}`, `was ${form(scheme)}, now ${form(next)}`);
  }
}

/** What changed from the released document to the current one, breaking changes apart. */
export function compareOpenApi(released: Json, current: Json): Comparison {
  const result: Comparison = { breaking: [], compatible: [] };
  const seen = new Set<string>();
  const sink: Sink = {
    // One schema can be reached along several paths (a shared component): one line per place.
    breaking: (kind, where, detail) => {
      if (!seen.has(`${kind} ${where}`)) result.breaking.push({ kind, where, detail });
      seen.add(`${kind} ${where}`);
    },
    compatible: (kind, where, detail) => {
      if (!seen.has(`${kind} ${where}`)) result.compatible.push({ kind, where, detail });
      seen.add(`${kind} ${where}`);
    },
  };
  const docs: [Json, Json] = [released, current];
  compareSecuritySchemes(docs, sink);
  const [before, after] = [operationsOf(released), operationsOf(current)];
  for (const [name, op] of before) {
    const next = after.get(name);
    if (!next) {
      sink.breaking('operation-removed', name, op.operationId ? `operation ${op.operationId} removed` : 'removed');
      continue;
    }
    const pair: [Json, Json] = [op, next];
    compareSecurity(docs, pair, name, sink);
    compareParameters(docs, pair, name, sink);
    compareRequestBodies(docs, pair, name, sink);
    compareResponses(docs, pair, name, sink);
  }
  for (const [name, op] of after)
    if (!before.has(name))
      sink.compatible('operation-added', name, op.operationId ? `operation ${op.operationId}` : 'new operation');
  return result;
}

const SEMVER = /^(\d+)\.(\d+)\.(\d+)\.json$/;

/** The last released document's file: the highest version in openapi/released/. */
export function lastReleasedFile(dir = RELEASED_DIR): string {
  const versions = fs.readdirSync(dir).flatMap((file) => {
    const m = SEMVER.exec(file);
    return m ? [{ file, key: m.slice(1, 4).map(Number) }] : [];
  });
  versions.sort((a, b) => a.key[0]! - b.key[0]! || a.key[1]! - b.key[1]! || a.key[2]! - b.key[2]!);
  const last = versions.at(-1);
  if (!last) throw new Error(`no released document in ${dir}`);
  return path.join(dir, last.file);
}

/** The document as a release keeps it: without the deployment's own server address. */
export function releasedForm(doc: Json): Json {
  const { servers: _servers, ...rest } = doc;
  return rest;
}

export function formatComparison({ breaking, compatible }: Comparison): string {
  const lines = (changes: Change<string>[]) => changes.map((c) => `  ${c.kind}  ${c.where}: ${c.detail}`);
  return [
    `Breaking changes: ${breaking.length}`,
    ...lines(breaking),
    `Additions and other compatible changes: ${compatible.length}`,
    ...lines(compatible),
  ].join('\n');
}

const readJson = (file: string): Json => JSON.parse(fs.readFileSync(file, 'utf8'));

async function main(args: string[]): Promise<number> {
  if (args[0] === '--release') {
    const { version } = readJson(fileURLToPath(new URL('../package.json', import.meta.url))) as { version: string };
    const file = path.join(RELEASED_DIR, `${version}.json`);
    fs.mkdirSync(RELEASED_DIR, { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(releasedForm(await buildOpenApiDocument()), null, 2)}\n`);
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
    return 0;
  }
  const releasedFile = args[0] ?? lastReleasedFile();
  const current = args[1] ? readJson(args[1]) : await buildOpenApiDocument();
  const comparison = compareOpenApi(readJson(releasedFile), current);
  console.log(
    `${path.relative(process.cwd(), releasedFile)} → ${args[1] ?? "today's document"}\n${formatComparison(comparison)}`,
  );
  return comparison.breaking.length > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
