// What short URLs and campaigns share as a service: a record is read with its clickCount (one
// ClickHouse query for a whole page), a link of another organization does not exist, linked apps
// and custom domains are checked before anything is written, and every successful change tells
// the link caches (and, where the kind publishes them, the change events).
import { conflict, DomainError } from '../../shared/errors.js';
import type { Plan } from '../../shared/plans.js';
import type { ClickCounts, LinkType } from '../../olap/click-counts.queries.js';
import type { LinkedAppIds, LinkTargets } from './link-targets.js';
import type { Caller } from '../caller.js';
import { authorize } from '../accounts/permissions.js';
import { invalidField } from '../field-error.js';
import { inputFaultOf } from '../input-fault.js';
import { invalid } from '../../shared/errors.js';
import { MAX_TAGS_PER_LINK } from './tags.service.js';
import { CUSTOM_DOMAIN_PATHS, SERVICE_HOST_PATHS, isReservedSlug } from './link-rules.js';
import type { ManagedLinkFields, NewLinkItem, RoutingRule, Variant } from '../../oltp/link-table.js';

export type { ManagedLinkFields };
import { hashPassword } from '../../shared/password-hash.js';
import { checkGeoConditions, type GeoFields } from '../routing/geo-conditions.js';
import type { TagsService } from './tags.service.js';

/** Who is asking: the organization (of a Service API key, or of a console member, whose role limits what they may change). */
export interface LinkCaller {
  organization: { id: number; name: string; plan: Plan };
  member?: Caller['member'];
  /** The Service API key that called, when one did: it names the campaigns it makes. */
  apiKeyId?: number | null;
}

/** A record with its clicks so far. */
export type Counted<R> = R & { clickCount: number };

export type ChangeAction = 'created' | 'updated' | 'deleted';

export interface Page {
  page: number;
  size: number;
}

interface LinkRecord {
  id: number;
  organizationId: number;
}

export interface LinkRepo<R extends LinkRecord, F, Filter> {
  get(organizationId: number, id: number): Promise<R | undefined>;
  getMany(organizationId: number, ids: number[]): Promise<R[]>;
  list(organizationId: number, filter: Filter, page: Page): Promise<{ items: R[]; total: number }>;
  each(organizationId: number, filter: Filter): AsyncGenerator<R[]>;
  update(organizationId: number, id: number, patch: Partial<F>): Promise<R | undefined>;
  updateMany(
    organizationId: number,
    ids: number[],
    change: { addTagIds: number[]; removeTagIds: number[]; set: Partial<F>; maxTags: number },
  ): Promise<number[]>;
  delete(organizationId: number, id: number): Promise<boolean>;
  deleteMany(organizationId: number, ids: number[]): Promise<number[]>;
}

/** One item of a bulk operation: the record, or why it was refused. */
export type BulkResult<T> = T | { error: DomainError };

/** A change made to many links at once. */
export interface BulkChange {
  addTags?: readonly string[] | undefined;
  removeTags?: readonly string[] | undefined;
  expiresAt?: Date | null | undefined;
  archived?: boolean | undefined;
}

export interface TrackedLinksDeps {
  clickCounts: ClickCounts;
  targets: LinkTargets;
  tags: Pick<TagsService, 'idsFor' | 'filterId'>;
  /** Tells every instance's link cache that the organization's links changed. */
  linkChanged(organizationId: number): void;
  /** What the geo database knows beyond the country: rules naming regions or cities need it. */
  geoFields: GeoFields;
}

/** Link management as a create or an update gives it (left out: unchanged, or none on a create). */
export interface ManagedLinkInput {
  /** Tag names; new names create tags. */
  tags?: readonly string[] | undefined;
  /** null removes the password. */
  password?: string | null | undefined;
  clickLimit?: number | null | undefined;
  clickLimitUrl?: string | null | undefined;
  expiredUrl?: string | null | undefined;
  note?: string | null | undefined;
  archived?: boolean | undefined;
  /** Routing rules in order (null or [] removes them); validated by the caller (src/core/routing). */
  routingRules?: RoutingRule[] | null | undefined;
  /** A/B variants (null or [] removes them). */
  variants?: Variant[] | null | undefined;
  /** The redirect appends a click id to the destination, tying web goals to the click. */
  conversionTracking?: boolean | undefined;
}

/** A kind's own fields as a create or an update gives them: the managed ones come as ManagedLinkInput. */
export type OwnFields<F> = Omit<F, keyof ManagedLinkFields>;

/** What a create is given: the kind's fields (those left out are null), and where the link lives. */
export type NewLink<F> = Partial<OwnFields<F>> &
  ManagedLinkInput & {
    originalUrl: string;
    customDomainName?: string | null | undefined;
  };

/**
 * The slug a create claims under the kind's `field`: the one the caller `chosen` (refused when it is
 * a path of the service, a conflict when taken), else `code`, generated, and `nextCode` for another
 * while it is taken.
 */
export interface SlugClaim {
  field: string;
  chosen: string | undefined;
  code: string;
  nextCode?: (() => string) | undefined;
}

/** What a create writes of the kind's own: its fields (those left out null) and the slug it claims. */
export interface OwnNewLink<F> {
  fields: OwnFields<F>;
  slug: SlugClaim;
}

/** A new link as the kind's repository inserts it: all its fields, its custom domain and its slug. */
export type LinkInsert<F> = NewLinkItem<OwnFields<F> & ManagedLinkFields>;

/** A list's criteria as the caller gives them: the kind's own, a tag by name, the archive. */
export type ListCriteria<Filter> = Omit<Filter, 'tagId'> & { tag?: string | undefined };

/** A new link's managed fields: what the input gives, none of the rest. */
const NO_MANAGED_FIELDS: ManagedLinkFields = {
  tagIds: [],
  passwordHash: null,
  clickLimit: null,
  clickLimitUrl: null,
  limitClicks: 0,
  expiredUrl: null,
  note: null,
  archivedAt: null,
  routingRules: [],
  variants: [],
  conversionTracking: false,
};

/** The fields both kinds have that a create may leave out (null then); each kind adds its own. */
export const OPTIONAL_LINK_FIELDS = [
  'expiresAt',
  'iosAppId',
  'androidAppId',
  'utmSource',
  'utmMedium',
  'iosDeepLinkPath',
  'androidDeepLinkPath',
  'goalType',
] as const;

/** The input fields named in `keys`, each left out as null. */
export function orNull<I extends object, K extends keyof I>(
  input: I,
  keys: readonly K[],
): { [P in K]-?: Exclude<I[P], undefined> | null } {
  const out = {} as { [P in K]-?: Exclude<I[P], undefined> | null };
  for (const key of keys) out[key] = (input[key] ?? null) as Exclude<I[K], undefined> | null;
  return out;
}

export function createTrackedLinks<R extends LinkRecord, F extends LinkedAppIds, Filter>(
  deps: TrackedLinksDeps,
  kind: {
    repo: LinkRepo<R, F, Filter>;
    linkType: LinkType;
    /** The error for an id the caller has no such record under. */
    missing(id: number): DomainError;
    /** After each successful change (the campaign's change events). */
    changed?(action: ChangeAction, record: R): void;
  },
) {
  const { repo } = kind;

  async function withCounts(organizationId: number, items: R[]): Promise<Counted<R>[]> {
    const counts = await deps.clickCounts.forLinks(
      organizationId,
      kind.linkType,
      items.map((r) => r.id),
    );
    return items.map((r) => ({ ...r, clickCount: counts.get(r.id) ?? 0 }));
  }

  /**
   * The managed fields an input sets (tags resolved to ids, the password hashed). Setting a click
   * limit on a link that had none starts its count at the clicks it has had: a limit counts every click.
   */
  async function managedFields(
    organizationId: number,
    input: ManagedLinkInput,
    existing?: R & Partial<ManagedLinkFields>,
    tagIdsOf: (names: readonly string[]) => Promise<number[]> = (names) => deps.tags.idsFor(organizationId, names),
  ): Promise<Partial<ManagedLinkFields>> {
    const out: Partial<ManagedLinkFields> = {};
    if (input.tags !== undefined) out.tagIds = await tagIdsOf(input.tags);
    if (input.password !== undefined)
      out.passwordHash = input.password === null ? null : await hashPassword(input.password);
    if (input.clickLimit !== undefined) {
      out.clickLimit = input.clickLimit;
      if (existing && existing.clickLimit == null && input.clickLimit !== null) {
        const counts = await deps.clickCounts.forLinks(organizationId, kind.linkType, [existing.id]);
        out.limitClicks = counts.get(existing.id) ?? 0;
      }
    }
    if (input.clickLimitUrl !== undefined) out.clickLimitUrl = input.clickLimitUrl;
    if (input.expiredUrl !== undefined) out.expiredUrl = input.expiredUrl;
    if (input.note !== undefined) out.note = input.note;
    if (input.archived !== undefined) out.archivedAt = input.archived ? (existing?.archivedAt ?? new Date()) : null;
    if (input.routingRules !== undefined) {
      const rules = input.routingRules ?? [];
      checkGeoConditions(rules, deps.geoFields);
      out.routingRules = rules;
    }
    if (input.variants !== undefined) out.variants = input.variants ?? [];
    if (input.conversionTracking !== undefined) out.conversionTracking = input.conversionTracking;
    return out;
  }

  /** The kind's own fields of a patch, without the managed ones. */
  function ownPatch(patch: Partial<OwnFields<F>> & ManagedLinkInput): Partial<F> {
    const {
      tags,
      password,
      clickLimit,
      clickLimitUrl,
      expiredUrl,
      note,
      archived,
      routingRules,
      variants,
      conversionTracking,
      ...own
    } = patch;
    return own as Partial<F>;
  }

  async function find(caller: LinkCaller, id: number): Promise<R> {
    const found = await repo.get(caller.organization.id, id);
    if (!found) throw kind.missing(id);
    return found;
  }

  /** A list's criteria as the repository filters: the tag named by its id (tags.filterId). */
  async function filterOf(caller: LinkCaller, criteria: ListCriteria<Filter>): Promise<Filter> {
    const { tag, ...rest } = criteria;
    const tagId = await deps.tags.filterId(caller.organization.id, tag);
    return { ...rest, ...(tagId === undefined ? {} : { tagId }) } as unknown as Filter;
  }

  function afterChange(action: ChangeAction, record: R): void {
    deps.linkChanged(record.organizationId);
    kind.changed?.(action, record);
  }

  /** What both kinds offer as they are; each adds its own create. */
  const service = {
    async list(
      caller: LinkCaller,
      criteria: ListCriteria<Filter>,
      page: Page,
    ): Promise<{ items: Counted<R>[]; total: number }> {
      const { items, total } = await repo.list(caller.organization.id, await filterOf(caller, criteria), page);
      return { items: await withCounts(caller.organization.id, items), total };
    },

    async get(caller: LinkCaller, id: number): Promise<Counted<R>> {
      return (await withCounts(caller.organization.id, [await find(caller, id)]))[0]!;
    },

    /** Fields left out keep their value; null clears. */
    async update(caller: LinkCaller, id: number, patch: Partial<OwnFields<F>> & ManagedLinkInput): Promise<Counted<R>> {
      authorize(caller, 'links.write');
      const organizationId = caller.organization.id;
      const existing = await find(caller, id);
      const own = ownPatch(patch);
      await deps.targets.checkLinkedApps(organizationId, own);
      const managed = await managedFields(organizationId, patch, existing as R & Partial<ManagedLinkFields>);
      const updated = await repo.update(organizationId, id, { ...own, ...managed } as Partial<F>);
      if (!updated) throw kind.missing(id);
      afterChange('updated', updated);
      return (await withCounts(organizationId, [updated]))[0]!;
    },

    /**
     * One change to many links (up to a thousand): tags added and taken off, the expiry set or
     * cleared, archived or not. Each id answers its record as it is afterwards, or why not.
     */
    async updateMany(caller: LinkCaller, ids: number[], change: BulkChange): Promise<BulkResult<Counted<R>>[]> {
      authorize(caller, 'links.write');
      const organizationId = caller.organization.id;
      const addTagIds = await deps.tags.idsFor(organizationId, change.addTags ?? [], 'addTags');
      const removeTagIds = await deps.tags.idsFor(organizationId, change.removeTags ?? [], 'removeTags');
      const set = {
        ...(change.expiresAt === undefined ? {} : { expiresAt: change.expiresAt }),
        ...(change.archived === undefined ? {} : { archivedAt: change.archived ? new Date() : null }),
      } as Partial<F>;
      const knownIds = new Set((await repo.getMany(organizationId, ids)).map((r) => r.id));
      const changed = new Set(
        await repo.updateMany(organizationId, ids, { addTagIds, removeTagIds, set, maxTags: MAX_TAGS_PER_LINK }),
      );
      if (changed.size > 0) deps.linkChanged(organizationId);
      const records = await withCounts(organizationId, await repo.getMany(organizationId, [...changed]));
      const byId = new Map(records.map((r) => [r.id, r]));
      for (const r of records) kind.changed?.('updated', r);
      // Not changed: not the organization's (or gone meanwhile), or it would carry too many tags.
      return ids.map(
        (id) =>
          byId.get(id) ??
          (knownIds.has(id) && !changed.has(id)
            ? { error: invalid('TOO_MANY_TAGS', `link ${id} would carry more than ${MAX_TAGS_PER_LINK} tags`) }
            : { error: kind.missing(id) }),
      );
    },

    /** Deletes many links (up to a thousand); each id answers whether it went. */
    async deleteMany(caller: LinkCaller, ids: number[]): Promise<BulkResult<{ id: number; deleted: true }>[]> {
      authorize(caller, 'links.write');
      const organizationId = caller.organization.id;
      const existing = kind.changed ? await repo.getMany(organizationId, ids) : [];
      const deleted = new Set(await repo.deleteMany(organizationId, ids));
      if (deleted.size > 0) deps.linkChanged(organizationId);
      for (const r of existing) if (deleted.has(r.id)) kind.changed?.('deleted', r);
      return ids.map((id) => (deleted.has(id) ? { id, deleted: true as const } : { error: kind.missing(id) }));
    },

    /** Every link the criteria match, with its clicks, a thousand at a time (exports). */
    async *export(caller: LinkCaller, criteria: ListCriteria<Filter>): AsyncGenerator<Counted<R>[]> {
      for await (const page of repo.each(caller.organization.id, await filterOf(caller, criteria))) {
        yield await withCounts(caller.organization.id, page);
      }
    },

    async delete(caller: LinkCaller, id: number): Promise<void> {
      authorize(caller, 'links.write');
      const organizationId = caller.organization.id;
      // The change event names what went, so it is read first.
      const existing = kind.changed ? await repo.get(organizationId, id) : undefined;
      if ((kind.changed && !existing) || !(await repo.delete(organizationId, id))) throw kind.missing(id);
      deps.linkChanged(organizationId);
      if (existing) kind.changed?.('deleted', existing);
    },
  };

  /** A new link as the repository inserts it. */
  const insertOf = (
    fields: OwnFields<F>,
    managed: ManagedLinkFields,
    customDomain: { id: number; name: string } | null,
    slug: SlugClaim,
  ): LinkInsert<F> => ({ fields: { ...fields, ...managed }, customDomain, code: slug.code, nextCode: slug.nextCode });

  /** The conflict of a slug someone already has on that domain: the chosen one, else the one generated first. */
  const taken = ({ field, chosen, code }: SlugClaim) =>
    conflict('ALIAS_TAKEN', `${field}: ${chosen ?? code} is already in use on this domain`, { field });

  /** The refusal of one item of a bulk create: a domain error as it is, a value the database refused as invalid. */
  function itemError(err: unknown): { error: DomainError } {
    if (err instanceof DomainError) return { error: err };
    const fault = inputFaultOf(err);
    if (fault) return { error: invalid(fault.code, fault.message) };
    throw err;
  }

  return {
    service,

    /** The record, without its clicks; a missing one throws. */
    find,

    /**
     * create for many inputs at once, in one transaction: each input is checked as create checks
     * it, the tags of all are resolved together, and `insert` writes the accepted ones (undefined
     * back for an item: its slug is taken). Every input answers its record or why it was refused;
     * an `insert` that answers only ids (O), where nothing reads the record, saves reading it back.
     */
    async createMany<
      I extends LinkedAppIds & ManagedLinkInput & { customDomainName?: string | null | undefined },
      O extends { id: number } = R,
    >(
      caller: LinkCaller,
      inputs: readonly I[],
      ownOf: (input: I) => OwnNewLink<F>,
      insert: (organizationId: number, items: LinkInsert<F>[]) => Promise<Array<O | undefined | { error: unknown }>>,
    ): Promise<BulkResult<Counted<O>>[]> {
      authorize(caller, 'links.write');
      const organizationId = caller.organization.id;
      const allTags = [...new Set(inputs.flatMap((i) => i.tags ?? []))];
      const tagIds = await deps.tags.idsFor(organizationId, allTags, 'items').catch(() => undefined);
      const idOf = new Map(allTags.map((name, i) => [name.trim().toLowerCase(), tagIds?.[i]]));
      const resolveTags = async (names: readonly string[]) =>
        [...new Set(names.map((n) => idOf.get(n.trim().toLowerCase())))].filter((id): id is number => id !== undefined);

      const results: BulkResult<Counted<O>>[] = new Array(inputs.length);
      const accepted: Array<{ at: number; slug: SlugClaim; item: LinkInsert<F> }> = [];
      for (const [at, input] of inputs.entries()) {
        try {
          await deps.targets.checkLinkedApps(organizationId, input);
          const customDomain = await deps.targets.usableCustomDomain(organizationId, input.customDomainName);
          const { fields, slug } = ownOf(input);
          if (slug.chosen !== undefined && isReservedSlug(slug.chosen, customDomain !== null))
            throw invalidField(slug.field, `${slug.chosen} is a path of the service on this host`);
          const managed = {
            ...NO_MANAGED_FIELDS,
            ...(await managedFields(organizationId, input, undefined, tagIds ? resolveTags : undefined)),
          };
          accepted.push({ at, slug, item: insertOf(fields, managed, customDomain, slug) });
        } catch (err) {
          results[at] = itemError(err);
        }
      }
      const inserted =
        accepted.length === 0
          ? []
          : await insert(
              organizationId,
              accepted.map((a) => a.item),
            );
      for (const [n, { at, slug }] of accepted.entries()) {
        const r = inserted[n];
        if (r === undefined) results[at] = { error: taken(slug) };
        else if (typeof r === 'object' && r !== null && 'error' in r) results[at] = itemError(r.error);
        else {
          results[at] = { ...(r as O), clickCount: 0 };
          // A kind that announces its changes (campaigns) inserts whole records (O = R).
          kind.changed?.('created', r as unknown as R);
        }
      }
      if (inserted.some((r) => r !== undefined && !(typeof r === 'object' && r !== null && 'error' in r)))
        deps.linkChanged(organizationId);
      return results;
    },

    /**
     * Checks the targets and a chosen slug, then inserts the link through `insert` (with the
     * organization, its custom domain and its managed fields); undefined back from it means the
     * slug is taken.
     */
    async create(
      caller: LinkCaller,
      input: LinkedAppIds & ManagedLinkInput & { customDomainName?: string | null | undefined },
      own: OwnNewLink<F>,
      insert: (item: LinkInsert<F> & { organizationId: number }) => Promise<R | undefined>,
    ): Promise<Counted<R>> {
      authorize(caller, 'links.write');
      const organizationId = caller.organization.id;
      await deps.targets.checkLinkedApps(organizationId, input);
      const customDomain = await deps.targets.usableCustomDomain(organizationId, input.customDomainName);
      const { fields, slug } = own;
      if (slug.chosen !== undefined && isReservedSlug(slug.chosen, customDomain !== null)) {
        const paths = customDomain ? CUSTOM_DOMAIN_PATHS : SERVICE_HOST_PATHS;
        throw invalidField(
          slug.field,
          `${slug.chosen} is a path of the service on this host (reserved: ${paths.join(', ')})`,
        );
      }
      const managed = { ...NO_MANAGED_FIELDS, ...(await managedFields(organizationId, input)) };
      const created = await insert({ organizationId, ...insertOf(fields, managed, customDomain, slug) });
      if (!created) throw taken(slug);
      afterChange('created', created);
      // A new link has no clicks yet: no need to ask ClickHouse.
      return { ...created, clickCount: 0 };
    },
  };
}
