// The console's goal types: the spec's presets and the organization's own, which members with
// links.write add and remove. A link's goalType stays free text: this list is what the console
// offers. Inside the console API context: session and CSRF rules apply; the core checks the role.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountServices } from '../../core/accounts/index.js';
import {
  GOAL_TYPE_DESCRIPTION_MAX,
  GOAL_TYPE_NAME_MAX,
  type GoalType,
  type GoalTypesService,
} from '../../core/links/goal-types.js';
import { memberRoutes } from './acting-member.js';
import { writeErrors as errors, orgParams } from './route-docs.js';

const goalTypeSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  preset: z.boolean().describe("one of the spec's presets: cannot be removed"),
  createdAt: z.string().nullable().describe('ISO-8601; null for a preset'),
});

const toJson = (g: GoalType): z.infer<typeof goalTypeSchema> => ({
  name: g.name,
  description: g.description,
  preset: g.preset,
  createdAt: g.createdAt?.toISOString() ?? null,
});

export const consoleGoalTypeRoutes: FastifyPluginAsyncZod<{
  accounts: AccountServices;
  goalTypes: GoalTypesService;
}> = async (app, { accounts, goalTypes }) => {
  const route = memberRoutes(app, accounts);

  route(
    'GET',
    '/organizations/:orgId/goal-types',
    {
      summary: "Goal types for links: the 8 presets first, then the organization's own in the order they were added",
      params: orgParams,
      response: z.array(goalTypeSchema),
      errors,
    },
    async ({ caller }) => (await goalTypes.list(caller)).map(toJson),
  );

  route(
    'POST',
    '/organizations/:orgId/goal-types',
    {
      params: orgParams,
      summary:
        'Add a goal type (links.write). A preset name, or one the organization has in any case, is 409 GOAL_TYPE_EXISTS',
      body: z.object({
        name: z.string().trim().min(1).max(GOAL_TYPE_NAME_MAX),
        description: z.string().trim().max(GOAL_TYPE_DESCRIPTION_MAX).nullable().optional(),
      }),
      status: 201,
      response: goalTypeSchema,
      errors,
    },
    async ({ caller, actor }, request) => toJson(await goalTypes.add(caller, actor, request.body)),
  );

  route(
    'DELETE',
    '/organizations/:orgId/goal-types/:name',
    {
      summary:
        "Remove one of the organization's goal types (links.write); links that use it keep it. A preset is 409 GOAL_TYPE_PRESET",
      params: orgParams.extend({ name: z.string().min(1).max(200) }),
      status: 204,
      errors,
    },
    async ({ caller, actor }, request) => goalTypes.remove(caller, actor, request.params.name),
  );
};
