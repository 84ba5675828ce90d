// Shlink (REST API v3, self-hosted): GET /rest/v3/short-urls page by page (the cursor is the page
// number), oldest first, with the X-Api-Key header. Tags, title, validUntil and maxVisits come
// with each short URL; a short URL of another domain than the default keeps its domain in its id.
import { z } from 'zod';
import type { ImportedLink, ImportSource, SourceContext } from '../import-source.js';
import { pagedSource } from '../paged-source.js';
import { importedLink } from '../source-answer.js';

const PAGE_SIZE = 100;

const shortUrlSchema = z.object({
  shortCode: z.string(),
  longUrl: z.string(),
  domain: z.string().nullish(),
  title: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  dateCreated: z.string().nullish(),
  meta: z.object({ validUntil: z.string().nullish(), maxVisits: z.number().int().nullish() }).nullish(),
});
export type ShlinkShortUrl = z.infer<typeof shortUrlSchema>;

const pageSchema = z.object({
  shortUrls: z.object({
    data: z.array(shortUrlSchema),
    pagination: z.object({
      currentPage: z.number().int(),
      pagesCount: z.number().int(),
      totalItems: z.number().int().nullish(),
    }),
  }),
});

export function mapShlinkShortUrl(u: ShlinkShortUrl): ImportedLink {
  return {
    ...importedLink({
      sourceId: u.domain ? `${u.domain}/${u.shortCode}` : u.shortCode,
      originalUrl: u.longUrl,
      customAlias: u.shortCode,
      title: u.title,
      tags: u.tags,
      expiresAt: u.meta?.validUntil ?? null,
      createdAt: u.dateCreated,
    }),
    clickLimit: u.meta?.maxVisits ?? null,
  };
}

export function createShlinkSource(ctx: SourceContext): ImportSource {
  return pagedSource(ctx, {
    name: 'shlink',
    headers: { 'x-api-key': ctx.token },
    async page(read, cursor, signal) {
      const page = cursor ?? '1';
      const { data, pagination } = (
        await read(
          `rest/v3/short-urls?page=${page}&itemsPerPage=${PAGE_SIZE}&orderBy=dateCreated-ASC`,
          pageSchema,
          signal,
        )
      ).shortUrls;
      return {
        items: data,
        next: pagination.currentPage < pagination.pagesCount ? String(pagination.currentPage + 1) : null,
        total: pagination.totalItems,
      };
    },
    toLink: mapShlinkShortUrl,
  });
}
