// The goal types an organization offers on its links: the spec's presets, then the ones its
// members added in the console. A link's goalType stays free text (the spec allows any value, and
// purchase tracking makes purchase_<CURRENCY>), so this list suggests and never restricts: removing
// a type changes no link. Reading needs links.read, changes links.write; changes are audited.
import type { GoalTypeRecord, GoalTypesRepo } from '../../oltp/goal-types.repo.js';
import { conflict, notFound } from '../../shared/errors.js';
import type { Actor, AuditTrail } from '../accounts/audit-trail.js';
import { authorize } from '../accounts/permissions.js';
import type { Caller } from '../caller.js';
import { invalidField } from '../field-error.js';

/** The spec's preset goal types, in its order. */
const GOAL_TYPE_PRESETS = [
  'purchase',
  'signup',
  'addToCart',
  'productView',
  'subscription',
  'appInstall',
  'formSubmit',
  'contentView',
] as const;

export const GOAL_TYPE_NAME_MAX = 50;
export const GOAL_TYPE_DESCRIPTION_MAX = 200;

export interface GoalType {
  name: string;
  description: string | null;
  preset: boolean;
  /** Null for a preset. */
  createdAt: Date | null;
}

type GoalTypeCaller = Pick<Caller, 'organization' | 'member'>;

/** Names compare without case: `Purchase` would only split the preset `purchase` in two. */
const presetNamed = (name: string) => GOAL_TYPE_PRESETS.find((p) => p.toLowerCase() === name.toLowerCase());

/** Every control character and the Unicode line separators: a name is one line. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its job
const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

function checkedName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0) throw invalidField('name', 'must not be empty');
  if (name.length > GOAL_TYPE_NAME_MAX) throw invalidField('name', `must be at most ${GOAL_TYPE_NAME_MAX} characters`);
  if (NOT_ONE_LINE.test(name)) throw invalidField('name', 'must be a single line without control characters');
  return name;
}

function checkedDescription(raw: string | null | undefined): string | null {
  const description = raw?.trim() ?? '';
  if (description.length === 0) return null;
  if (description.length > GOAL_TYPE_DESCRIPTION_MAX)
    throw invalidField('description', `must be at most ${GOAL_TYPE_DESCRIPTION_MAX} characters`);
  return description;
}

const custom = (r: GoalTypeRecord): GoalType => ({
  name: r.name,
  description: r.description,
  preset: false,
  createdAt: r.createdAt,
});

export function createGoalTypesService(deps: { repo: GoalTypesRepo; audit: AuditTrail }) {
  const { repo, audit } = deps;
  const exists = (name: string) => conflict('GOAL_TYPE_EXISTS', `the goal type ${name} exists already`, { name });

  return {
    /** The presets first, in the spec's order, then the organization's own in the order they were added. */
    async list(caller: GoalTypeCaller): Promise<GoalType[]> {
      authorize(caller, 'links.read');
      const own = await repo.list(caller.organization.id);
      return [
        ...GOAL_TYPE_PRESETS.map((name): GoalType => ({ name, description: null, preset: true, createdAt: null })),
        ...own.map(custom),
      ];
    },

    /** A preset's name, or one the organization has (in any case), is a conflict. */
    async add(
      caller: GoalTypeCaller,
      actor: Actor,
      input: { name: string; description?: string | null | undefined },
    ): Promise<GoalType> {
      authorize(caller, 'links.write');
      const name = checkedName(input.name);
      const description = checkedDescription(input.description);
      const preset = presetNamed(name);
      if (preset) throw exists(preset);
      const added = await repo.add(caller.organization.id, {
        name,
        description,
        createdBy: actor.type === 'user' ? actor.userId : null,
      });
      if (!added) throw exists(name);
      await audit.record(actor, 'goal_type.added', {
        organizationId: caller.organization.id,
        target: `goal_type:${name}`,
        details: { name, description },
      });
      return custom(added);
    },

    /** Removes one of the organization's own types (matched in any case); links that use it keep it. */
    async remove(caller: GoalTypeCaller, actor: Actor, rawName: string): Promise<void> {
      authorize(caller, 'links.write');
      const name = rawName.trim();
      const preset = presetNamed(name);
      if (preset)
        throw conflict('GOAL_TYPE_PRESET', `${preset} is a preset goal type and cannot be removed`, { name: preset });
      const removed = await repo.remove(caller.organization.id, name);
      if (!removed) throw notFound('GOAL_TYPE_NOT_FOUND', `the goal type ${name} does not exist`);
      await audit.record(actor, 'goal_type.removed', {
        organizationId: caller.organization.id,
        target: `goal_type:${removed.name}`,
        details: { name: removed.name },
      });
    },
  };
}

export type GoalTypesService = ReturnType<typeof createGoalTypesService>;
