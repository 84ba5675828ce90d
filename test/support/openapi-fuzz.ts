// Request generation for the OpenAPI fuzz test: a plausible request per operation, built from the
// document's schemas, and hostile variants of it (one field at a time, so that the field under
// attack is the one the service has to cope with). Deterministic: every choice comes from a seeded
// generator.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
// biome-ignore lint/suspicious/noExplicitAny: a JSON Schema node of any shape, read field by field.
type Schema = Record<string, any>;

export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface Operation {
  parameters?: Array<{ in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema?: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
}

/** mulberry32: small, fast and the same on every machine. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Values that pass the schemas where a field's name says what it holds. */
const KNOWN_STRINGS: Record<string, string> = {
  url: 'https://example.com/landing',
  originalUrl: 'https://example.com/landing',
  ogImageUrl: 'https://example.com/a.png',
  landingUrl: 'https://example.com/landing',
  referrer: 'https://example.com/',
  webhookUrl: 'https://example.com/hook',
  email: 'someone@example.com',
  phone: '+821012345678',
  customDomainName: 'links.example.com',
  domainName: 'links.example.com',
  timeZone: 'Asia/Seoul',
  startDate: '2026-01-01',
  endDate: '2026-01-31',
  createdAfter: '2026-01-01T00:00:00Z',
  createdBefore: '2026-12-31T00:00:00Z',
  expirationDate: '2030-01-01T00:00:00Z',
  expiresAt: '2030-01-01T00:00:00Z',
  occurredAt: '2026-11-22T09:30:00Z',
  resolution: '1170x2532',
  ipAddress: '203.0.113.7',
  bundleId: 'com.example.fuzz',
  packageName: 'com.example.fuzz',
  darkColor: '#000000',
  lightColor: '#ffffff',
  clientEventId: '0193a1f2-7c4e-7b21-9a55-1f6d2c3b4a59',
  eventId: '0193a1f2-7c4e-7b21-9a55-1f6d2c3b4a59',
};

export class Sampler {
  constructor(
    private readonly doc: OpenApiDoc,
    private readonly known: Record<string, Json>,
  ) {}

  private resolve(schema: Schema): Schema {
    let s = schema;
    for (let i = 0; i < 10 && typeof s?.$ref === 'string'; i++) {
      s = this.doc.components?.schemas?.[s.$ref.split('/').pop()!] ?? {};
    }
    return s ?? {};
  }

  /** A plausible value for `schema`, the field's name guiding strings and ids. */
  sample(raw: Schema | undefined, name = '', depth = 0): Json {
    const schema = this.resolve(raw ?? {});
    if (name in this.known) return this.known[name]!;
    if (schema.const !== undefined) return schema.const;
    if (Array.isArray(schema.enum)) return schema.enum[0];
    if (schema.example !== undefined && depth > 0) return schema.example;
    if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
    const union = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(union)) {
      const option = union.find((o: Schema) => this.resolve(o).type !== 'null') ?? union[0];
      return this.sample(option, name, depth);
    }
    if (Array.isArray(schema.allOf))
      return this.sample(Object.assign({}, ...schema.allOf.map((s: Schema) => this.resolve(s))), name, depth);
    const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
    if (schema.default !== undefined && type !== 'object') return schema.default;
    switch (type) {
      case 'string':
        if (name in KNOWN_STRINGS) return KNOWN_STRINGS[name]!;
        if (schema.format === 'uri' || /url$/i.test(name)) return 'https://example.com/x';
        if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
        if (schema.format === 'email') return 'someone@example.com';
        return `fuzz-${(name || 'value').replace(/[^A-Za-z0-9]/g, '').slice(0, 20)}`;
      case 'integer':
      case 'number': {
        const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
        return Math.max(1, min);
      }
      case 'boolean':
        return false;
      case 'array':
        return depth > 6 ? [] : [this.sample(schema.items, name, depth + 1)];
      default: {
        // 'object', and a schema that names no type.
        if (!schema.properties || depth > 6) return {};
        const out: Record<string, Json> = {};
        for (const [key, prop] of Object.entries(schema.properties as Record<string, Schema>))
          out[key] = this.sample(prop, key, depth + 1);
        return out;
      }
    }
  }
}

/** Paths of the leaves of a JSON value that satisfy `keep`. */
export function leafPaths(
  value: Json,
  keep: (leaf: Json) => boolean,
  at: Array<string | number> = [],
): Array<Array<string | number>> {
  if (Array.isArray(value)) return value.flatMap((v, i) => leafPaths(v, keep, [...at, i]));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => leafPaths(v, keep, [...at, k]));
  return keep(value) ? [at] : [];
}

/** A copy of `value` with the node at `path` replaced. */
export function replaceAt(value: Json, path: Array<string | number>, replacement: Json): Json {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? replaceAt(v, rest, replacement) : v));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === head ? replaceAt(v, rest, replacement) : v]),
    );
  }
  return value;
}

/** Every object node's path (the root included). */
export function objectPaths(value: Json, at: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return value.flatMap((v, i) => objectPaths(v, [...at, i]));
  if (value !== null && typeof value === 'object')
    return [at, ...Object.entries(value).flatMap(([k, v]) => objectPaths(v, [...at, k]))];
  return [];
}

/**
 * Percent-encoding that also writes what encodeURIComponent refuses: a lone surrogate becomes the
 * three bytes a careless encoder makes of it (%ED%A0%80), which is not UTF-8.
 */
export function encodeLoosely(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const pair = unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && /[\udc00-\udfff]/.test(text[i + 1]!);
    if (unit >= 0xd800 && unit <= 0xdfff && !pair) {
      out += `%${(0xe0 | (unit >> 12)).toString(16).toUpperCase()}%${(0x80 | ((unit >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (unit & 0x3f)).toString(16).toUpperCase()}`;
    } else if (pair) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else {
      out += encodeURIComponent(text[i]!);
    }
  }
  return out;
}

/** `depth` objects nested in one another, written directly (no recursion anywhere). */
export const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
export const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
