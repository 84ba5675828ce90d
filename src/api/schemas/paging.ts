// Paging: the query every list takes and the two page forms clients read (URL/campaign lists;
// mobile-app/custom-domain lists, the latter with Spring-style extras).
import { z } from 'zod';

export const pageQuery = {
  page: z.coerce
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(0, 'must be 0 or more')
    .max(1_000_000)
    .default(0),
  size: z.coerce
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(1, 'must be between 1 and 100')
    .max(100, 'must be between 1 and 100')
    .default(20),
};

export interface Page {
  page: number;
  size: number;
}

/** `true`/`false` in a query string (z.coerce.boolean would read "false" as true). */
export const queryBoolean = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((v) => v === 'true');

/** An ISO-8601 instant in a query string; a bare date means its first instant, UTC. */
export const queryDateTime = z.string().transform((value, ctx) => {
  const normalised = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? `${value}T00:00:00Z`
    : /(Z|[+-]\d{2}:?\d{2})$/.test(value)
      ? value
      : `${value}Z`;
  const date = new Date(normalised);
  // Date() rolls 2025-02-30 over to March 2; a day the month does not have is refused instead.
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const realDay = new Date(Date.UTC(y, m - 1, d)).getUTCDate() === d;
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime()) || !realDay) {
    ctx.addIssue({ code: 'custom', message: 'must be an ISO-8601 date-time such as 2025-03-09T00:00:00Z' });
    return z.NEVER;
  }
  return date;
});

/** What every page form says about where it stands. */
function pageFacts(total: number, page: Page) {
  const totalPages = Math.ceil(total / page.size);
  return { totalPages, first: page.page === 0, last: page.page >= totalPages - 1 };
}

const pageFactsShape = { totalPages: z.number().int(), first: z.boolean(), last: z.boolean() };

/** The fields of the URL and campaign list form, for answers that add their own beside them. */
export const pagedShape = <T extends z.ZodType>(item: T) => ({
  content: z.array(item),
  page: z.number().int(),
  size: z.number().int(),
  totalElements: z.number().int(),
  ...pageFactsShape,
});

/** URL and campaign lists: page, size, totalElements, totalPages, first, last. */
export function pagedResponse<T extends z.ZodType>(item: T, id: string) {
  return z.object(pagedShape(item)).meta({ id });
}

export function toPaged<T>(content: T[], total: number, page: Page) {
  const { totalPages, first, last } = pageFacts(total, page);
  return { content, page: page.page, size: page.size, totalElements: total, totalPages, first, last };
}

const numberedShape = <T extends z.ZodType>(item: T) => ({
  content: z.array(item),
  totalElements: z.number().int(),
  totalPages: z.number().int(),
  size: z.number().int(),
  number: z.number().int(),
  first: z.boolean(),
  last: z.boolean(),
});

/** Mobile-app lists: totalElements, totalPages, size, number, first, last. */
export function numberedPageResponse<T extends z.ZodType>(item: T, id: string) {
  return z.object(numberedShape(item)).meta({ id });
}

export function toNumberedPage<T>(content: T[], total: number, page: Page) {
  const { totalPages, first, last } = pageFacts(total, page);
  return { content, totalElements: total, totalPages, size: page.size, number: page.page, first, last };
}

const sortSchema = z.object({ empty: z.boolean(), sorted: z.boolean(), unsorted: z.boolean() });

/** Custom-domain lists: the numbered form plus numberOfElements, empty and pageable. */
export function springPageResponse<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      ...numberedShape(item),
      numberOfElements: z.number().int(),
      empty: z.boolean(),
      sort: sortSchema,
      pageable: z.object({
        pageNumber: z.number().int(),
        pageSize: z.number().int(),
        offset: z.number().int(),
        sort: sortSchema,
        paged: z.boolean(),
        unpaged: z.boolean(),
      }),
    })
    .meta({ id });
}

export function toSpringPage<T>(content: T[], total: number, page: Page) {
  const sort = { empty: false, sorted: true, unsorted: false };
  return {
    ...toNumberedPage(content, total, page),
    numberOfElements: content.length,
    empty: content.length === 0,
    sort,
    pageable: {
      pageNumber: page.page,
      pageSize: page.size,
      offset: page.page * page.size,
      sort,
      paged: true,
      unpaged: false,
    },
  };
}
