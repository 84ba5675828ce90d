// The organization's tags: listed with how many links carry each, created, renamed, recoloured and
// deleted (which takes the tag off its links). Links name tags by name; a new name creates the tag
// with a colour of the palette, the same for the same name.
import { conflict, notFound } from '../../shared/errors.js';
import type { Tag, TagsRepo } from '../../oltp/tags.repo.js';
import { authorize } from '../accounts/permissions.js';
import { invalidField } from '../field-error.js';
import type { Caller } from '../caller.js';

/** Who is asking: an organization's key or member (whose role limits changes). */
interface TagCaller {
  organization: { id: number };
  member?: Caller['member'];
}

export type { Tag };

/** At most this many tags on one link. */
export const MAX_TAGS_PER_LINK = 20;

const TAG_PALETTE = [
  '#e03131',
  '#c2255c',
  '#9c36b5',
  '#6741d9',
  '#3b5bdb',
  '#1971c2',
  '#0c8599',
  '#099268',
  '#2f9e44',
  '#e8590c',
] as const;

/** A colour of the palette chosen by the name, so a tag made from a link keeps a stable colour. */
function paletteColor(name: string): string {
  let hash = 0;
  for (const ch of name.toLowerCase()) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  return TAG_PALETTE[hash % TAG_PALETTE.length]!;
}

/** Trimmed names, the first spelling of each name kept (names compare case-insensitively). */
function distinctTagNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    const key = name.toLowerCase();
    if (name === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return out;
}

const tagTaken = (name: string) => conflict('TAG_EXISTS', `a tag named ${name} already exists`, { field: 'name' });
const tagMissing = (id: number) => notFound('TAG_NOT_FOUND', `tag ${id} does not exist`);

export function createTagsService(deps: { repo: TagsRepo; linkChanged(organizationId: number): void }) {
  const { repo } = deps;
  return {
    list: (caller: TagCaller) => repo.list(caller.organization.id),

    async get(caller: TagCaller, id: number): Promise<Tag> {
      const tag = await repo.get(caller.organization.id, id);
      if (!tag) throw tagMissing(id);
      return tag;
    },

    async create(caller: TagCaller, input: { name: string; color?: string | undefined }): Promise<Tag> {
      authorize(caller, 'links.write');
      const name = input.name.trim();
      const created = await repo.create(caller.organization.id, name, input.color ?? paletteColor(name));
      if (!created) throw tagTaken(name);
      return created;
    },

    async update(
      caller: TagCaller,
      id: number,
      patch: { name?: string | undefined; color?: string | undefined },
    ): Promise<Tag> {
      authorize(caller, 'links.write');
      const name = patch.name?.trim();
      const updated = await repo.update(caller.organization.id, id, { name, color: patch.color });
      if (updated === 'taken') throw tagTaken(name ?? '');
      if (!updated) throw tagMissing(id);
      deps.linkChanged(caller.organization.id);
      return updated;
    },

    async delete(caller: TagCaller, id: number): Promise<void> {
      authorize(caller, 'links.write');
      if (!(await repo.delete(caller.organization.id, id))) throw tagMissing(id);
      deps.linkChanged(caller.organization.id);
    },

    /** The ids of a link's tag names, creating new tags. `field` names the input in a refusal. */
    async idsFor(organizationId: number, names: readonly string[], field = 'tags'): Promise<number[]> {
      const distinct = distinctTagNames(names);
      if (distinct.length > MAX_TAGS_PER_LINK)
        throw invalidField(field, `at most ${MAX_TAGS_PER_LINK} tags on one link`);
      return repo.ensure(organizationId, distinct, paletteColor);
    },

    /** A list filter's tag: its id, or null when the organization has no tag of that name (nothing matches). */
    async filterId(organizationId: number, name: string | undefined): Promise<number | null | undefined> {
      if (name === undefined) return undefined;
      return (await repo.idOf(organizationId, name.trim())) ?? null;
    },
  };
}

export type TagsService = ReturnType<typeof createTagsService>;
