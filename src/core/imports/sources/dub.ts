// Dub (https://api.dub.co): GET /links page by page (the cursor is the page number), the bearer
// API key (a workspace's own; an older key names its workspace with workspaceId). The total comes
// from GET /links/count once. Tags, title, expiresAt, the password (Dub answers with it as
// set) and conversion tracking (Dub's trackConversion) come with each link.
import { z } from 'zod';
import type { ImportedLink, ImportSource, SourceContext } from '../import-source.js';
import { pagedSource } from '../paged-source.js';
import { importedLink } from '../source-answer.js';

const PAGE_SIZE = 100;

const linkSchema = z.object({
  id: z.string(),
  key: z.string(),
  url: z.string(),
  title: z.string().nullish(),
  tags: z.array(z.object({ name: z.string() })).nullish(),
  expiresAt: z.string().nullish(),
  createdAt: z.string().nullish(),
  password: z.string().nullish(),
  trackConversion: z.boolean().nullish(),
});
export type DubLink = z.infer<typeof linkSchema>;

export function mapDubLink(l: DubLink): ImportedLink {
  return {
    ...importedLink({
      sourceId: l.id,
      originalUrl: l.url,
      customAlias: l.key,
      title: l.title,
      tags: l.tags?.map((t) => t.name),
      expiresAt: l.expiresAt ?? null,
      createdAt: l.createdAt,
    }),
    ...(l.password ? { password: l.password } : {}),
    ...(l.trackConversion ? { conversionTracking: true } : {}),
  };
}

export function createDubSource(ctx: SourceContext): ImportSource {
  const workspace = ctx.options.workspaceId ? `workspaceId=${encodeURIComponent(ctx.options.workspaceId)}` : '';
  return pagedSource(ctx, {
    name: 'dub',
    headers: { authorization: `Bearer ${ctx.token}` },
    count: (read, signal) => read(workspace ? `links/count?${workspace}` : 'links/count', z.number().int(), signal),
    async page(read, cursor, signal) {
      const page = Number(cursor ?? '1');
      const links = await read(
        `links?page=${page}&pageSize=${PAGE_SIZE}&sortBy=createdAt&sortOrder=asc${workspace ? `&${workspace}` : ''}`,
        z.array(linkSchema),
        signal,
      );
      // Asked until a page comes back empty: a server may give fewer than asked for on every page.
      return { items: links, next: links.length > 0 ? String(page + 1) : null };
    },
    toLink: mapDubLink,
  });
}
