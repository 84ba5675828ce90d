// What the operator routes share: their OpenAPI group and the bearer token they need (both given
// to every route in index.ts, where the token is checked), the organization the path names, the
// error answers most of them can give, one record's answer, a page of records and the 204 of a
// deletion.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, idSchema } from '../schemas/common.js';
import { type Page, pagedResponse, toPaged } from '../schemas/paging.js';

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

export const tags = ['operator'];
export const security = [{ adminToken: [] }];

/** Every operator route is documented in the operator group, as needing the bearer token. */
export function documentAsOperatorRoutes(app: ZodApp): void {
  app.addHook('onRoute', (route) => {
    if (route.schema) route.schema = { ...route.schema, tags, security };
  });
}

/** `/organizations/:orgId/…` */
export const orgParams = z.object({ orgId: idSchema });

/** A refused input, a wrong token, a record that does not exist. */
export const operatorErrors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/** The same, and a change that clashes with what is there (409). */
export const operatorConflictErrors = { ...operatorErrors, 409: errorBodySchema };

/**
 * `method` `url`: `status` (200 unless said) with what `run` answers for the path's params, the body
 * and the caller's address, as `response` describes it: a read, a change, or a record made.
 */
export function operatorAnswer<P extends z.ZodType, B extends z.ZodType>(
  app: ZodApp,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  doc: {
    summary: string;
    description?: string;
    params?: P;
    body?: B;
    status?: 200 | 201;
    response: z.ZodType;
    errors: Record<number, z.ZodType>;
  },
  run: (params: z.output<P>, body: z.output<B>, ip: string) => Promise<unknown>,
): void {
  const { status = 200, response, errors, params, body, ...text } = doc;
  app.route({
    method,
    url,
    // In the order the document has always listed them.
    schema: {
      ...text,
      ...(params ? { params: params as z.ZodType } : {}),
      ...(body ? { body: body as z.ZodType } : {}),
      response: { [status]: response, ...errors },
    },
    handler: async (request, reply) =>
      reply.code(status).send(await run(request.params as z.output<P>, request.body as z.output<B>, request.ip)),
  });
}

/**
 * GET `url`: the page of records `list` finds for the query (whose page and size are among its
 * fields) and the path's params, each as `toJson` shapes it, in the page form named `pageId`.
 */
export function operatorPage<Q extends z.ZodType<Page>, P extends z.ZodType, T>(
  app: ZodApp,
  url: string,
  doc: {
    summary: string;
    params?: P;
    querystring: Q;
    item: z.ZodType;
    pageId: string;
    errors: Record<number, z.ZodType>;
  },
  list: (query: z.output<Q>, params: z.output<P>) => Promise<{ items: T[]; total: number }>,
  toJson: (record: T) => unknown,
): void {
  app.get(
    url,
    {
      schema: {
        summary: doc.summary,
        ...(doc.params ? { params: doc.params as z.ZodType } : {}),
        querystring: doc.querystring as z.ZodType,
        response: { 200: pagedResponse(doc.item, doc.pageId), ...doc.errors },
      },
    },
    async (request) => {
      const query = request.query as z.output<Q>;
      const { items, total } = await list(query, request.params as z.output<P>);
      return toPaged(items.map(toJson), total, query);
    },
  );
}

/** DELETE `url`: 204 (`done` says what happened, for the document) once `remove` (given the caller's address) is done. */
export function operatorDelete<P extends z.ZodType>(
  app: ZodApp,
  url: string,
  doc: { summary: string; params: P; errors: Record<number, z.ZodType>; done?: string },
  remove: (params: z.output<P>, ip: string) => Promise<unknown>,
): void {
  app.delete(
    url,
    {
      schema: {
        summary: doc.summary,
        params: doc.params as z.ZodType,
        response: { 204: z.null().describe(doc.done ?? 'deleted'), ...doc.errors },
      },
    },
    async (request, reply) => {
      await remove(request.params as z.output<P>, request.ip);
      return reply.code(204).send(null);
    },
  );
}
