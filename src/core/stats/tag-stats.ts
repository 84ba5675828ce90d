// Statistics by tag: clicks and visitors per tag of the organization over a period (the console's
// "Tags" panel), and the names of a `tag` filter turned into tag ids for the dashboards. Tags live
// in PostgreSQL; ClickHouse keeps each link's current tags (link_tags), copied from PostgreSQL's
// outbox of tag changes by the sync below, and joins them to the clicks when asked. Before a figure
// by tag is read, the organization's pending changes are copied, so a tag just renamed, taken off a
// link or deleted shows at once. With compare=previous each tag's clicks are read over the previous
// period too (comparison.ts), in the same round, and each tag shows its change.
import type { GeoFields } from '../routing/geo-conditions.js';
import type { LinkTagsQueries } from '../../olap/link-tags.queries.js';
import type { LinkTagChangesRepo } from '../../oltp/link-tag-changes.repo.js';
import type { TagsRepo } from '../../oltp/tags.repo.js';
import type { Logger } from '../../shared/logger.js';
import { authorize } from '../accounts/permissions.js';
import type { Caller } from '../caller.js';
import { invalidField } from '../field-error.js';
import { startPeriodicJob, type PeriodicJob } from '../periodic-job.js';
import { type ClickFilterInput, type ClickFilters, parseClickFilters } from './click-filters.js';
import { type ComparisonPeriod, compareRows, type FigureChange, readWithPrevious } from './comparison.js';
import { type LinkSetApplied, type LinkSetInput, parseLinkSet } from './link-set.js';
import { periodForPlan, type PeriodInput, type StatsPeriod } from './period.js';

/** Changes copied per transaction. */
const SYNC_BATCH = 5_000;
const MAX_TAG_NAMES = 50;

type StatsCaller = Pick<Caller, 'organization' | 'member'>;

/** The `tag` filter as the request carries it: tag names, comma-separated, any case. */
export interface TagFilterInput {
  tag?: string | undefined;
}

export interface TagStatsInput extends PeriodInput, ClickFilterInput, TagFilterInput, LinkSetInput {
  compare?: 'previous' | 'off' | undefined;
}

export interface TagClicksItem {
  id: number;
  name: string;
  color: string;
  clicks: number;
  visitors: number;
  /** With compare=previous: the tag's clicks against the previous period's; null when the periods cannot be compared. */
  compared?: FigureChange | null;
}

export interface TagSync {
  /** Copies the pending changes (of one organization, or all) to ClickHouse; the number copied. */
  flush(organizationId: number | null): Promise<number>;
}

export function createTagSync(deps: {
  changes: LinkTagChangesRepo;
  linkTags: Pick<LinkTagsQueries, 'write'>;
}): TagSync {
  return {
    async flush(organizationId) {
      let copied = 0;
      for (;;) {
        const n = await deps.changes.drain(SYNC_BATCH, organizationId, (changes) =>
          deps.linkTags.write(changes.map(({ id, ...change }) => ({ version: id, ...change }))),
        );
        copied += n;
        if (n < SYNC_BATCH) return copied;
      }
    },
  };
}

/** Copies tag changes to ClickHouse every few seconds on every instance (each takes other rows). */
export function startTagSync(sync: TagSync, log: Logger, intervalMs = 5_000): PeriodicJob {
  return startPeriodicJob({
    name: 'tag sync',
    intervalMs,
    log: log.child({ module: 'tag-sync' }),
    round: () => sync.flush(null),
  });
}

/** The names of a `tag` filter: trimmed, without repeats (case-insensitively); undefined for none. */
function tagNames(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const seen = new Set<string>();
  const names = raw
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '' && !seen.has(n.toLowerCase()) && seen.add(n.toLowerCase()));
  if (names.length === 0) return undefined;
  if (names.length > MAX_TAG_NAMES) throw invalidField('tag', `at most ${MAX_TAG_NAMES} tags`);
  return names;
}

export function createTagStatsService(deps: {
  tags: Pick<TagsRepo, 'list'>;
  sync: TagSync;
  linkTags: Pick<LinkTagsQueries, 'byTag'>;
  clock: () => Date;
  /** What the GeoIP database tells beyond the country: whether region and city filters can be answered. */
  geoFields: GeoFields;
}) {
  /**
   * The `tag` filter of a request: the names as given (what the answer repeats) and the ids the
   * queries compare, after the organization's pending tag changes are in ClickHouse. A name the
   * organization has no tag of matches nothing.
   */
  async function tagFilter(
    organizationId: number,
    raw: string | undefined,
  ): Promise<{ applied: { tag?: string[] }; match: { tagIds?: number[] } }> {
    const names = tagNames(raw);
    if (!names) return { applied: {}, match: {} };
    const byName = new Map((await deps.tags.list(organizationId)).map((t) => [t.name.toLowerCase(), t.id]));
    const tagIds = [...new Set(names.flatMap((n) => byName.get(n.toLowerCase()) ?? []))];
    await deps.sync.flush(organizationId);
    return { applied: { tag: names }, match: { tagIds } };
  }

  return {
    tagFilter,

    /** Clicks and visitors per tag of the organization, most clicks first; tags without clicks come last with 0. */
    async byTag(
      caller: StatsCaller,
      input: TagStatsInput,
    ): Promise<{
      period: StatsPeriod;
      filters: ClickFilters & { tag?: string[] } & LinkSetApplied;
      tags: TagClicksItem[];
      /** The previous period when compare=previous; null otherwise. */
      comparison: ComparisonPeriod | null;
    }> {
      authorize(caller, 'statistics.read');
      const { organization } = caller;
      const { startDate, endDate, timeZone, tag, compare, url, campaign, ...filterInput } = input;
      const filters = parseClickFilters(filterInput, deps.geoFields);
      const chosen = parseLinkSet({ url, campaign });
      const now = deps.clock();
      const period = periodForPlan(organization.plan, { startDate, endDate, timeZone }, now);
      const byTag = await tagFilter(organization.id, tag);
      if (!tag) await deps.sync.flush(organization.id);
      const match = { ...filters.match, ...byTag.match };
      const [tags, { current: counts, previous }] = await Promise.all([
        deps.tags.list(organization.id),
        readWithPrevious(period, now, compare === 'previous', (p) =>
          deps.linkTags.byTag(organization.id, p, match, chosen.match),
        ),
      ]);
      const countOf = new Map(counts.map((c) => [c.tagId, c]));
      const only = byTag.match.tagIds;
      const shown = only ? tags.filter((t) => only.includes(t.id)) : tags;
      const items = shown.map((t) => ({
        id: t.id,
        name: t.name,
        color: t.color,
        clicks: countOf.get(t.id)?.clicks ?? 0,
        visitors: countOf.get(t.id)?.visitors ?? 0,
      }));
      items.sort((a, b) => b.clicks - a.clicks || a.name.localeCompare(b.name));
      const before = previous?.stats;
      const compared: TagClicksItem[] = !previous
        ? items
        : before
          ? compareRows(
              items.map((i) => ({ ...i, count: i.clicks })),
              (i) => String(i.id),
              before.map((c): [string, number] => [String(c.tagId), c.clicks]),
            ).map(({ count: _count, ...i }) => i)
          : items.map((i) => ({ ...i, compared: null }));
      return {
        period,
        filters: { ...filters.applied, ...byTag.applied, ...chosen.applied },
        tags: compared,
        comparison: previous?.comparison ?? null,
      };
    },
  };
}

export type TagStatsService = ReturnType<typeof createTagStatsService>;
