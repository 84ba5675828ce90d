// YOURLS (self-hosted, no plugin needed): yourls-api.php?action=stats&filter=last with limit and
// start (the cursor is the start), the signature token as a parameter, as YOURLS takes it. That
// list carries the keyword (in shorturl), the URL, the title and the time; YOURLS has no tags,
// expiry or visit limits without plugins. `last` is newest first: a link made during the import
// moves the rest down by one, which is then seen twice and skipped the second time.
import { z } from 'zod';
import type { ImportedLink, ImportSource, SourceContext } from '../import-source.js';
import { nextOffset, pagedSource } from '../paged-source.js';
import { apiUrl, codeOf, importedLink } from '../source-answer.js';

const PAGE_SIZE = 100;

const linkSchema = z.object({
  shorturl: z.string(),
  url: z.string(),
  title: z.string().nullish(),
  timestamp: z.string().nullish(),
});
export type YourlsLink = z.infer<typeof linkSchema>;

const pageSchema = z.object({
  // An empty list is `[]` in PHP's JSON, a full one an object keyed link_1, link_2, ...
  links: z.union([z.record(z.string(), linkSchema), z.array(linkSchema)]).nullish(),
  stats: z.object({ total_links: z.coerce.number().int() }).nullish(),
});

export function mapYourlsLink(l: YourlsLink): ImportedLink | undefined {
  const keyword = codeOf(l.shorturl);
  if (!keyword) return undefined;
  return importedLink({
    sourceId: keyword,
    originalUrl: l.url,
    customAlias: keyword,
    title: l.title,
    createdAt: l.timestamp,
  });
}

/** The API's address: the install's yourls-api.php, whether the person gave it or the install's root. */
function endpoint(base: URL): URL {
  return base.pathname.endsWith('.php') ? new URL(base.href) : apiUrl(base, 'yourls-api.php');
}

export function createYourlsSource(ctx: SourceContext): ImportSource {
  return pagedSource(ctx, {
    // The token travels as a parameter, not a header.
    name: 'yourls',
    async page(read, cursor, signal) {
      const start = Number(cursor ?? '0');
      const url = endpoint(ctx.baseUrl);
      url.search = new URLSearchParams({
        action: 'stats',
        filter: 'last',
        limit: String(PAGE_SIZE),
        start: String(start),
        format: 'json',
        signature: ctx.token,
      }).toString();
      const page = await read(url, pageSchema, signal);
      const items = Array.isArray(page.links) ? page.links : Object.values(page.links ?? {});
      const total = page.stats?.total_links;
      return { items, next: nextOffset(start, items.length, PAGE_SIZE, total), total };
    },
    toLink: mapYourlsLink,
  });
}
