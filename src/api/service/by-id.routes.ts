// The routes every Service API resource has alike: list a page of them (filtered by the query),
// read one by its id (200 with the record), update one by its id (200 with the record as it is
// now) and delete one by its id (204, no body). The caller comes from the context's authentication
// hook.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Caller } from '../../core/caller.js';
import { callerOf } from '../request-caller.js';
import { commonErrorResponses, errorBodySchema, idParams } from '../schemas/common.js';
import { type Page, pagedResponse, pageQuery, toPaged } from '../schemas/paging.js';

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

/** The OpenAPI grouping of a resource's routes. */
interface RouteDoc {
  tags: string[];
  /** Left out where the context's own hook authenticates (the SDK APIs). */
  security?: Record<string, string[]>[] | undefined;
}

/**
 * GET `url`: the page of records `list` finds for the caller with the query's `filter` fields,
 * each as `toJson` shapes it, in the page form named `pageId`.
 */
export function listPage<F extends z.ZodRawShape, T>(
  app: ZodApp,
  url: string,
  doc: RouteDoc & { summary: string; filter: F; item: z.ZodType; pageId: string },
  list: (caller: Caller, filter: z.output<z.ZodObject<F>>, page: Page) => Promise<{ items: T[]; total: number }>,
  toJson: (record: T) => unknown,
): void {
  const { filter, item, pageId, ...rest } = doc;
  app.get(
    url,
    {
      schema: {
        ...rest,
        querystring: z.object({ ...pageQuery, ...filter }),
        response: { 200: pagedResponse(item, pageId), ...commonErrorResponses },
      },
    },
    async (request) => {
      const { page, size, ...query } = request.query as Page & z.output<z.ZodObject<F>>;
      const { items, total } = await list(callerOf(request), query as z.output<z.ZodObject<F>>, { page, size });
      return toPaged(items.map(toJson), total, { page, size });
    },
  );
}

/**
 * `method` `url` (with `:id`): 200 with what `run` answers for the caller and the id, as `response`
 * describes it: a read, or an action on one record that answers the record as it is afterwards.
 */
export function answerById(
  app: ZodApp,
  method: 'get' | 'post' | 'delete',
  url: string,
  doc: RouteDoc & { summary: string; description?: string; response: z.ZodType },
  run: (caller: Caller, id: number) => Promise<unknown>,
): void {
  const { response, ...rest } = doc;
  app.route({
    method: method.toUpperCase() as 'GET' | 'POST' | 'DELETE',
    url,
    schema: { ...rest, params: idParams, response: { 200: response, ...commonErrorResponses } },
    handler: (request) => run(callerOf(request), request.params.id),
  });
}

/** GET `url` (with `:id`): the record `read` finds for the caller, as `response` describes it. */
export function readById(
  app: ZodApp,
  url: string,
  doc: RouteDoc & { summary: string; response: z.ZodType },
  read: (caller: Caller, id: number) => Promise<unknown>,
): void {
  answerById(app, 'get', url, doc, read);
}

/** PUT `url` (with `:id`): `update` gets the body `body` parsed; 409 where `conflicts` says a change can clash. */
export function updateById<B extends z.ZodType>(
  app: ZodApp,
  url: string,
  doc: RouteDoc & { summary: string; body: B; response: z.ZodType; conflicts?: boolean },
  update: (caller: Caller, id: number, body: z.output<B>) => Promise<unknown>,
): void {
  const { response, body, conflicts, ...rest } = doc;
  const errors = conflicts ? { ...commonErrorResponses, 409: errorBodySchema } : commonErrorResponses;
  app.put(
    url,
    { schema: { ...rest, params: idParams, body: body as z.ZodType, response: { 200: response, ...errors } } },
    (request) => update(callerOf(request), request.params.id, request.body as z.output<B>),
  );
}

/** DELETE `url` (with `:id`): 204 once `remove` is done. */
export function deleteById(
  app: ZodApp,
  url: string,
  doc: RouteDoc & { summary: string },
  remove: (caller: Caller, id: number) => Promise<unknown>,
): void {
  app.delete(
    url,
    { schema: { ...doc, params: idParams, response: { 204: z.null(), ...commonErrorResponses } } },
    async (request, reply) => {
      await remove(callerOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
