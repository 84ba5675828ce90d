// What the operator routes share: their OpenAPI group and the bearer token they need (both given
// to every route in index.ts, where the token is checked), the organization the path names, the
// error answers most of them can give, a page of records and the 204 of a deletion.
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
