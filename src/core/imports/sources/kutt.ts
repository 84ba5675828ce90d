// Kutt (API v2, kutt.it or self-hosted): GET /api/v2/links with skip and limit (the cursor is the
// skip), the X-API-KEY header. Kutt has no tags; its description becomes the title, expire_in the
// expiry; a link with a password is not imported (ImportedLink.passwordProtected).
import { z } from 'zod';
import type { ImportedLink, ImportSource, SourceContext } from '../import-source.js';
import { nextOffset, pagedSource } from '../paged-source.js';
import { importedLink } from '../source-answer.js';

const PAGE_SIZE = 50;

const linkSchema = z.object({
  id: z.string(),
  address: z.string(),
  target: z.string(),
  description: z.string().nullish(),
  expire_in: z.string().nullish(),
  created_at: z.string().nullish(),
  password: z.boolean().nullish(),
});
export type KuttLink = z.infer<typeof linkSchema>;

const pageSchema = z.object({
  total: z.coerce.number().int(),
  skip: z.coerce.number().int(),
  data: z.array(linkSchema),
});

export function mapKuttLink(l: KuttLink): ImportedLink {
  return {
    ...importedLink({
      sourceId: l.id,
      originalUrl: l.target,
      customAlias: l.address,
      title: l.description,
      expiresAt: l.expire_in ?? null,
      createdAt: l.created_at,
    }),
    ...(l.password ? { passwordProtected: true } : {}),
  };
}

export function createKuttSource(ctx: SourceContext): ImportSource {
  return pagedSource(ctx, {
    name: 'kutt',
    headers: { 'x-api-key': ctx.token },
    async page(read, cursor, signal) {
      const skip = Number(cursor ?? '0');
      const page = await read(`api/v2/links?skip=${skip}&limit=${PAGE_SIZE}`, pageSchema, signal);
      return { items: page.data, next: nextOffset(skip, page.data.length, PAGE_SIZE, page.total), total: page.total };
    },
    toLink: mapKuttLink,
  });
}
