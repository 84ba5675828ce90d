// Reading another service's answer the same way for every source: a refused token, a rate limit
// and any other failure become the typed errors of import-source.ts; a success is checked against
// the source's zod schema (the other service's API is an edge like our own). Plus the small
// conversions every mapping needs (dates, the code in a short URL, titles), applied alike to every
// service's link by importedLink.
import type { z } from 'zod';
import {
  type ImportedLink,
  SOURCE_LABELS,
  type SourceAnswer,
  type SourceContext,
  SourceFailed,
  type SourceName,
  SourceRateLimited,
  SourceRefused,
} from './import-source.js';

const header = (answer: SourceAnswer, name: string): string | undefined => {
  const value = answer.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * How long the service asked us to wait: Retry-After (seconds or an HTTP date), else
 * X-RateLimit-Reset (an epoch in seconds, or seconds from now when small), else undefined.
 */
export function retryAfterMs(answer: SourceAnswer, now: number): number | undefined {
  const retryAfter = header(answer, 'retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  const reset = header(answer, 'x-ratelimit-reset')?.trim();
  if (reset && /^\d+$/.test(reset)) {
    const n = Number(reset);
    // An epoch: seconds since 1970 are far larger than any wait a service asks for.
    return n > 1_000_000_000 ? Math.max(0, n * 1000 - now) : n * 1000;
  }
  return undefined;
}

/** The message an error body carries, in the shapes these services use. */
function errorMessage(body: string): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (json === null || typeof json !== 'object') return undefined;
  const o = json as Record<string, unknown>;
  const nested = o.error !== null && typeof o.error === 'object' ? (o.error as Record<string, unknown>) : undefined;
  for (const candidate of [o.detail, nested?.message, o.error, o.message, o.description, o.title]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim().slice(0, 300);
  }
  return undefined;
}

/** The JSON of a successful answer; throws the typed error of any other. */
export function readJson(answer: SourceAnswer, label: string, now = Date.now()): unknown {
  const { status } = answer;
  const said = errorMessage(answer.body);
  const because = said ? `: ${said}` : '';
  if (status === 401 || status === 403)
    throw new SourceRefused(`the token was refused by ${label} (HTTP ${status}${because})`);
  if (status === 429)
    throw new SourceRateLimited(`${label} asked us to slow down (HTTP 429)`, retryAfterMs(answer, now));
  if (status < 200 || status >= 300) {
    // A missing page or a refused request will not change by asking again; the service's own trouble may.
    throw new SourceFailed(`${label} answered HTTP ${status}${because}`, status >= 500 || status === 408);
  }
  try {
    return JSON.parse(answer.body);
  } catch {
    throw new SourceFailed(`${label} answered something that is not JSON`, false);
  }
}

/** The answer's JSON checked against the source's schema of it. */
function readAnswer<S extends z.ZodType>(answer: SourceAnswer, label: string, schema: S): z.output<S> {
  const parsed = schema.safeParse(readJson(answer, label));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new SourceFailed(`${label} answered in an unexpected shape${where}: ${issue?.message ?? 'invalid'}`, false);
  }
  return parsed.data;
}

/**
 * How a source reads its service: a GET of a path and query under the service's address (or of a
 * whole URL) with the source's headers, the answer read as `readAnswer` does under the source's label.
 */
export function sourceReader(ctx: SourceContext, name: SourceName, headers: Record<string, string> = {}) {
  const label = SOURCE_LABELS[name];
  return async <S extends z.ZodType>(where: string | URL, schema: S, signal: AbortSignal): Promise<z.output<S>> => {
    const url = typeof where === 'string' ? apiUrl(ctx.baseUrl, where) : where;
    return readAnswer(await ctx.get(url, headers, signal), label, schema);
  };
}

/** A date the service wrote, or undefined when it wrote none or nothing readable. */
export function parseDate(value: string | number | null | undefined): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  // An epoch as text: milliseconds, or seconds when it is short.
  if (typeof value === 'string' && /^\d{9,}$/.test(value))
    return parseDate(Number(value) * (value.length > 11 ? 1 : 1000));
  // `+0000` (Bitly) is read by Date.parse only as `+00:00`; `2024-01-02 03:04:05` (YOURLS) is UTC.
  const text =
    typeof value === 'number'
      ? value
      : value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2').replace(/^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}(:\d{2})?)$/, '$1T$2Z');
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** `total` of a page when the service said how many links it has, else nothing. */
export const knownTotal = (total: number | null | undefined): { total?: number } => (total == null ? {} : { total });

/** The last path segment of a short URL (`https://bit.ly/abc` → `abc`), undefined when there is none. */
export function codeOf(shortUrl: string): string | undefined {
  let path: string;
  try {
    path = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(shortUrl) ? shortUrl : `https://${shortUrl}`).pathname;
  } catch {
    return undefined;
  }
  const code = decodeURIComponent(path.replace(/\/+$/, '').split('/').pop() ?? '');
  return code === '' ? undefined : code;
}

/** A title as we keep it: null when empty. */
const titleOf = (value: string | null | undefined): string | null => {
  const t = value?.trim();
  return t ? t : null;
};

/** `pathAndQuery` under the service's address, which may itself have a path (an install under /shlink/). */
export const apiUrl = (base: URL, pathAndQuery: string): URL =>
  new URL(pathAndQuery.replace(/^\/+/, ''), base.href.endsWith('/') ? base.href : `${base.href}/`);

/** A service's link in our field names, its values as the service wrote them. */
export interface ServiceLink {
  sourceId: string;
  originalUrl: string;
  customAlias?: string | undefined;
  title: string | null | undefined;
  tags?: string[] | null | undefined;
  /** Left out by a service without expiries. */
  expiresAt?: string | null | undefined;
  createdAt: string | null | undefined;
}

/**
 * A service's link in our terms, read the same way for every service: an empty title is none, no
 * tags an empty list, an unreadable expiry none, and a creation time only when it can be read.
 */
export function importedLink(link: ServiceLink): ImportedLink {
  const { title, tags, expiresAt, createdAt, ...rest } = link;
  const created = parseDate(createdAt);
  return {
    ...rest,
    title: titleOf(title),
    tags: tags ?? [],
    ...(expiresAt === undefined ? {} : { expiresAt: parseDate(expiresAt) ?? null }),
    ...(created ? { createdAt: created } : {}),
  };
}
