// An import source that reads its service page by page: the reader with the source's headers, the
// total asked once before the first page where the service says it apart, each item mapped to an
// ImportedLink (an item that cannot be one is left out). A service's own module says only how it
// pages and how its link maps.
import type { z } from 'zod';
import type { ImportedLink, ImportSource, SourceContext, SourceName } from './import-source.js';
import { knownTotal, sourceReader } from './source-answer.js';

/** A GET of the service, its answer checked against `schema` (sourceReader). */
export type SourceRead = <S extends z.ZodType>(
  where: string | URL,
  schema: S,
  signal: AbortSignal,
) => Promise<z.output<S>>;

/** One page as the service answered it. */
export interface ServicePage<L> {
  items: L[];
  /** Where the next page starts; null after the last. */
  next: string | null;
  /** How many links the service has, when this page says it. */
  total?: number | null | undefined;
}

export interface PagedSourceSpec<L> {
  name: SourceName;
  headers?: Record<string, string>;
  /** How many links the service has, for a service that says it apart: asked once, before the first page. */
  count?(read: SourceRead, signal: AbortSignal): Promise<number | null | undefined>;
  /** The page at `cursor` (null: the first). */
  page(read: SourceRead, cursor: string | null, signal: AbortSignal): Promise<ServicePage<L>>;
  toLink(item: L): ImportedLink | undefined;
}

export function pagedSource<L>(ctx: SourceContext, spec: PagedSourceSpec<L>): ImportSource {
  const read = sourceReader(ctx, spec.name, spec.headers);
  return {
    name: spec.name,
    async fetchPage(cursor, signal) {
      const counted = cursor === null ? await spec.count?.(read, signal) : undefined;
      const page = await spec.page(read, cursor, signal);
      return {
        links: page.items.flatMap((item) => spec.toLink(item) ?? []),
        nextCursor: page.next,
        ...knownTotal(counted ?? page.total),
      };
    },
  };
}

/**
 * The cursor of the page after one that started at `start` (an offset) and held `count` items:
 * none after an empty page, nor once the total is reached; a service that gives no total is read
 * until a page comes back short.
 */
export function nextOffset(start: number, count: number, pageSize: number, total: number | undefined): string | null {
  const after = start + count;
  const more = count > 0 && (total === undefined ? count === pageSize : after < total);
  return more ? String(after) : null;
}
