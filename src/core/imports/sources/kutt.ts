// Kutt (API v2, kutt.it or self-hosted): GET /api/v2/links with skip and limit (the cursor is the
// skip), the X-API-KEY header. Kutt has no tags; its description becomes the title, expire_in the
// expiry; a link with a password is not imported (ImportedLink.passwordProtected).
import { z } from 'zod';
import type { ImportedLink, ImportSource, SourceContext } from '../import-source.js';
import { parseDate, sourceReader, titleOf } from '../source-answer.js';

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
  const createdAt = parseDate(l.created_at);
  return {
    sourceId: l.id,
    originalUrl: l.target,
    customAlias: l.address,
    title: titleOf(l.description),
    tags: [],
    expiresAt: parseDate(l.expire_in) ?? null,
    ...(createdAt ? { createdAt } : {}),
    ...(l.password ? { passwordProtected: true } : {}),
  };
}

export function createKuttSource(ctx: SourceContext): ImportSource {
  const read = sourceReader(ctx, 'kutt', { 'x-api-key': ctx.token });
  return {
    name: 'kutt',
    async fetchPage(cursor, signal) {
      const skip = Number(cursor ?? '0');
      const page = await read(`api/v2/links?skip=${skip}&limit=${PAGE_SIZE}`, pageSchema, signal);
      const after = skip + page.data.length;
      return {
        links: page.data.map(mapKuttLink),
        nextCursor: page.data.length > 0 && after < page.total ? String(after) : null,
        total: page.total,
      };
    },
  };
}
