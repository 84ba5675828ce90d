// Rebrandly (https://api.rebrandly.com): GET /v1/links, 25 a page, oldest first; the cursor is the
// id of the page's last link (`last`). The apikey header, and a workspace header for a workspace
// other than the main one. The total comes from GET /v1/links/count once.
import { z } from 'zod';
import type { ImportedLink, ImportSource, SourceContext } from '../import-source.js';
import { pagedSource } from '../paged-source.js';
import { importedLink } from '../source-answer.js';

const PAGE_SIZE = 25;

const linkSchema = z.object({
  id: z.string(),
  slashtag: z.string(),
  destination: z.string(),
  title: z.string().nullish(),
  createdAt: z.string().nullish(),
  tags: z.array(z.object({ name: z.string() })).nullish(),
});
export type RebrandlyLink = z.infer<typeof linkSchema>;

export function mapRebrandlyLink(l: RebrandlyLink): ImportedLink {
  return importedLink({
    sourceId: l.id,
    originalUrl: l.destination,
    customAlias: l.slashtag,
    title: l.title,
    tags: l.tags?.map((t) => t.name),
    createdAt: l.createdAt,
  });
}

export function createRebrandlySource(ctx: SourceContext): ImportSource {
  return pagedSource(ctx, {
    name: 'rebrandly',
    headers: { apikey: ctx.token, ...(ctx.options.workspaceId ? { workspace: ctx.options.workspaceId } : {}) },
    count: async (read, signal) => (await read('v1/links/count', z.object({ count: z.number().int() }), signal)).count,
    async page(read, cursor, signal) {
      const after = cursor === null ? '' : `&last=${encodeURIComponent(cursor)}`;
      const links = await read(
        `v1/links?limit=${PAGE_SIZE}&orderBy=createdAt&orderDir=asc${after}`,
        z.array(linkSchema),
        signal,
      );
      // Asked until a page comes back empty: a server may give fewer than asked for on every page.
      return { items: links, next: links.at(-1)?.id ?? null };
    },
    toLink: mapRebrandlyLink,
  });
}
