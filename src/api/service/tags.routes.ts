// Service API: the organization's tags (/api/v1/service/tags): list, create, rename or recolour,
// delete (which takes the tag off its links). Links carry tags by name (the `tags` field).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Tag, TagsService } from '../../core/links/tags.service.js';
import { callerOf } from '../request-caller.js';
import { commonErrorResponses, errorBodySchema } from '../schemas/common.js';
import { tagNameSchema } from '../schemas/link-management.js';
import { deleteById, updateById } from './by-id.routes.js';
import { security } from './route-docs.js';

const colorSchema = z
  .string()
  .regex(/^#?[0-9a-fA-F]{6}$/, 'must be a colour such as #1971c2')
  .transform((c) => (c.startsWith('#') ? c : `#${c}`).toLowerCase());

const tagSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    color: z.string().describe('#rrggbb'),
    linkCount: z.number().int().describe('short URLs and campaigns carrying it'),
    createdAt: z.string(),
  })
  .meta({ id: 'Tag' });

const toJson = (t: Tag) => ({ ...t, createdAt: t.createdAt.toISOString() });

export const tagRoutes: FastifyPluginAsyncZod<{ tags: TagsService; docTags: string[] }> = async (app, options) => {
  const { tags: service } = options;
  const doc = { tags: options.docTags, security };

  app.get(
    '/tags',
    {
      schema: {
        ...doc,
        summary: "The organization's tags, alphabetically",
        response: { 200: z.object({ items: z.array(tagSchema) }).meta({ id: 'TagList' }), ...commonErrorResponses },
      },
    },
    async (request) => ({ items: (await service.list(callerOf(request))).map(toJson) }),
  );

  app.post(
    '/tags',
    {
      schema: {
        ...doc,
        summary: 'Create a tag',
        body: z.object({
          name: tagNameSchema,
          color: colorSchema.optional().describe('#rrggbb; left out, one of the palette'),
        }),
        response: { 201: tagSchema, ...commonErrorResponses, 409: errorBodySchema },
      },
    },
    async (request, reply) => reply.code(201).send(toJson(await service.create(callerOf(request), request.body))),
  );

  updateById(
    app,
    '/tags/:id',
    {
      ...doc,
      summary: 'Rename or recolour a tag (its links show the new name)',
      body: z.object({ name: tagNameSchema.optional(), color: colorSchema.optional() }),
      response: tagSchema,
      conflicts: true,
    },
    async (caller, id, body) => toJson(await service.update(caller, id, body)),
  );

  deleteById(app, '/tags/:id', { ...doc, summary: 'Delete a tag and take it off its links' }, (caller, id) =>
    service.delete(caller, id),
  );
};
