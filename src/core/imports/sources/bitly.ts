// Bitly (API v4, https://api-ssl.bitly.com): the bitlinks of one group, 100 a page, with the
// bearer token. Without a group the account's default group (GET /v4/user) is read. The
// pagination's `next` link carries the next page's query (a page number or `search_after`), which
// becomes the cursor, always asked of the same address.
import { z } from 'zod';
import type { ImportedLink, ImportSource, SourceContext } from '../import-source.js';
import { pagedSource, type SourceRead } from '../paged-source.js';
import { codeOf, importedLink } from '../source-answer.js';

const PAGE_SIZE = 100;

const bitlinkSchema = z.object({
  id: z.string(),
  long_url: z.string(),
  title: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  custom_bitlinks: z.array(z.string()).nullish(),
  created_at: z.string().nullish(),
  expiration_at: z.string().nullish(),
});
export type Bitlink = z.infer<typeof bitlinkSchema>;

const pageSchema = z.object({
  links: z.array(bitlinkSchema),
  pagination: z.object({ next: z.string().nullish(), total: z.number().int().nullish() }).nullish(),
});

/** A bitlink in our terms: its custom back-half when it has one, else its own code, kept as the alias. */
export function mapBitlink(b: Bitlink): ImportedLink {
  const custom = b.custom_bitlinks?.map(codeOf).find((c) => c !== undefined);
  return importedLink({
    sourceId: b.id,
    originalUrl: b.long_url,
    customAlias: custom ?? codeOf(b.id),
    title: b.title,
    tags: b.tags,
    expiresAt: b.expiration_at ?? null,
    createdAt: b.created_at,
  });
}

export function createBitlySource(ctx: SourceContext): ImportSource {
  async function firstPage(read: SourceRead, signal: AbortSignal): Promise<string> {
    let group = ctx.options.groupId;
    if (!group) {
      const user = await read('v4/user', z.object({ default_group_guid: z.string().min(1) }), signal);
      group = user.default_group_guid;
    }
    return `v4/groups/${encodeURIComponent(group)}/bitlinks?size=${PAGE_SIZE}`;
  }

  return pagedSource(ctx, {
    name: 'bitly',
    headers: { authorization: `Bearer ${ctx.token}` },
    async page(read, cursor, signal) {
      const page = await read(cursor ?? (await firstPage(read, signal)), pageSchema, signal);
      const next = page.pagination?.next;
      // Only the next link's path and query are followed, on the address the person gave.
      return {
        items: page.links,
        next: next && page.links.length > 0 ? nextPath(next) : null,
        total: page.pagination?.total,
      };
    },
    toLink: mapBitlink,
  });
}

function nextPath(next: string): string | null {
  try {
    const url = new URL(next, 'https://api-ssl.bitly.com/');
    return `${url.pathname}${url.search}`;
  } catch {
    return null;
  }
}
