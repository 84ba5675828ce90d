// What short URLs and campaigns share as a service: a record is read with its clickCount (one
// ClickHouse query for a whole page), a link of another organization does not exist, linked apps
// and custom domains are checked before anything is written, and every successful change tells
// the link caches (and, where the kind publishes them, the change events).
import { conflict, type DomainError } from '../../shared/errors.js';
import type { Plan } from '../../shared/plans.js';
import type { ClickCounts, LinkType } from '../../olap/click-counts.queries.js';
import type { LinkedAppIds, LinkTargets } from './link-targets.js';
import type { Caller } from '../caller.js';
import { authorize } from '../accounts/permissions.js';
import { invalidField } from '../field-error.js';
import { CUSTOM_DOMAIN_PATHS, SERVICE_HOST_PATHS, isReservedSlug } from './link-rules.js';
import type { ManagedLinkFields } from '../../oltp/link-table.js';
import { hashPassword } from '../../shared/password-hash.js';
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
  list(organizationId: number, filter: Filter, page: Page): Promise<{ items: R[]; total: number }>;
  update(organizationId: number, id: number, patch: Partial<F>): Promise<R | undefined>;
  delete(organizationId: number, id: number): Promise<boolean>;
}

export interface TrackedLinksDeps {
  clickCounts: ClickCounts;
  targets: LinkTargets;
  tags: Pick<TagsService, 'idsFor' | 'filterId'>;
  /** Tells every instance's link cache that the organization's links changed. */
  linkChanged(organizationId: number): void;
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
}

/** A kind's own fields as a create or an update gives them: the managed ones come as ManagedLinkInput. */
export type OwnFields<F> = Omit<F, keyof ManagedLinkFields>;

/** What a create is given: the kind's fields (those left out are null), and where the link lives. */
export type NewLink<F> = Partial<OwnFields<F>> &
  ManagedLinkInput & {
    originalUrl: string;
    customDomainName?: string | null | undefined;
  };

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
  ): Promise<Partial<ManagedLinkFields>> {
    const out: Partial<ManagedLinkFields> = {};
    if (input.tags !== undefined) out.tagIds = await deps.tags.idsFor(organizationId, input.tags);
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
    return out;
  }

  /** The kind's own fields of a patch, without the managed ones. */
  function ownPatch(patch: Partial<OwnFields<F>> & ManagedLinkInput): Partial<F> {
    const { tags, password, clickLimit, clickLimitUrl, expiredUrl, note, archived, ...own } = patch;
    return own as Partial<F>;
  }

  async function find(caller: LinkCaller, id: number): Promise<R> {
    const found = await repo.get(caller.organization.id, id);
    if (!found) throw kind.missing(id);
    return found;
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
      const { tag, ...rest } = criteria;
      const tagId = await deps.tags.filterId(caller.organization.id, tag);
      const filter = { ...rest, ...(tagId === undefined ? {} : { tagId }) } as unknown as Filter;
      const { items, total } = await repo.list(caller.organization.id, filter, page);
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

  return {
    service,

    /** The record, without its clicks; a missing one throws. */
    find,

    /**
     * Checks the targets and a chosen slug, then inserts through `insert` (given the custom
     * domain to use and the managed fields); undefined back from it means the slug is taken:
     * `taken` says how.
     */
    async create(
      caller: LinkCaller,
      input: LinkedAppIds & ManagedLinkInput & { customDomainName?: string | null | undefined },
      insert: (customDomain: { id: number; name: string } | null, managed: ManagedLinkFields) => Promise<R | undefined>,
      taken: () => DomainError,
      chosen?: { field: string; slug: string },
    ): Promise<Counted<R>> {
      authorize(caller, 'links.write');
      const organizationId = caller.organization.id;
      await deps.targets.checkLinkedApps(organizationId, input);
      const customDomain = await deps.targets.usableCustomDomain(organizationId, input.customDomainName);
      if (chosen && isReservedSlug(chosen.slug, customDomain !== null)) {
        const paths = customDomain ? CUSTOM_DOMAIN_PATHS : SERVICE_HOST_PATHS;
        throw invalidField(
          chosen.field,
          `${chosen.slug} is a path of the service on this host (reserved: ${paths.join(', ')})`,
        );
      }
      const managed = { ...NO_MANAGED_FIELDS, ...(await managedFields(organizationId, input)) };
      const created = await insert(customDomain, managed);
      if (!created) throw taken();
      afterChange('created', created);
      // A new link has no clicks yet: no need to ask ClickHouse.
      return { ...created, clickCount: 0 };
    },
  };
}

/** The conflict of a slug someone already has on that domain. */
export const slugTaken = (field: string, slug: string | undefined) => () =>
  conflict('ALIAS_TAKEN', `${field}: ${slug} is already in use on this domain`, { field });
