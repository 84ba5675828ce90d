// The routes short URLs and campaigns share (the core's tracked links): a create (201, or 409 when
// the slug is taken), a page of them, one by id, an update and a delete, all on one path and in one
// OpenAPI group.
import type { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Caller } from '../../core/caller.js';
import { callerOf } from '../request-caller.js';
import { idempotencyHeaders, sendOnce } from '../idempotency.js';
import type { IdempotencyService } from '../../core/links/idempotency.service.js';
import { commonErrorResponses, errorBodySchema } from '../schemas/common.js';
import { fromRequestPart } from '../schemas/field-errors.js';
import type { Page } from '../schemas/paging.js';
import { deleteById, listPage, readById, updateById } from './by-id.routes.js';

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

/** The service a kind of tracked link offers beside its create and update. */
interface TrackedLinks<Filter, R> {
  list(caller: Caller, filter: Filter, page: Page): Promise<{ items: R[]; total: number }>;
  get(caller: Caller, id: number): Promise<R>;
  delete(caller: Caller, id: number): Promise<void>;
}

/**
 * POST and GET `path`, GET, PUT and DELETE `path`/:id. The create's refusals from the core name
 * fields of its body. `a` names one record in the summaries ("a campaign"),
 * `many` the list ("campaigns"), `slug` the part of its address that stops resolving when it goes.
 */
export function trackedLinkRoutes<F extends z.ZodRawShape, C extends z.ZodType, B extends z.ZodType, R>(
  app: ZodApp,
  path: string,
  doc: {
    tags: string[];
    security: Record<string, string[]>[];
    a: string;
    many: string;
    slug: string;
    filter: F;
    item: z.ZodType;
    pageId: string;
    createBody: C;
    updateBody: B;
    /** Safe retries of the create (Idempotency-Key), under this operation's name. */
    idempotency: IdempotencyService;
    createOperation: string;
  },
  links: TrackedLinks<z.output<z.ZodObject<F>>, R> & {
    create(caller: Caller, body: z.output<C>): Promise<R>;
    update(caller: Caller, id: number, body: z.output<B>): Promise<R>;
  },
  toJson: (record: R) => unknown,
): void {
  const { tags, security, item } = doc;
  const byId = `${path}/:id`;
  app.post(
    path,
    {
      schema: {
        tags,
        security,
        summary: `Create ${doc.a}`,
        headers: idempotencyHeaders,
        body: doc.createBody as z.ZodType,
        response: { 201: item, ...commonErrorResponses, 409: errorBodySchema, 422: errorBodySchema },
      },
    },
    async (request, reply) =>
      sendOnce(request, reply, doc.idempotency, doc.createOperation, 201, async () =>
        toJson(await fromRequestPart('body', links.create(callerOf(request), request.body as z.output<C>))),
      ),
  );
  listPage(
    app,
    path,
    { tags, security, summary: `List ${doc.many}, newest first`, filter: doc.filter, item, pageId: doc.pageId },
    links.list,
    toJson,
  );
  readById(app, byId, { tags, security, summary: `Read ${doc.a}`, response: item }, async (caller, id) =>
    toJson(await links.get(caller, id)),
  );
  updateById(
    app,
    byId,
    {
      tags,
      security,
      summary: `Update ${doc.a} (fields left out keep their value; null clears)`,
      body: doc.updateBody,
      response: item,
    },
    async (caller, id, body) => toJson(await links.update(caller, id, body)),
  );
  deleteById(app, byId, { tags, security, summary: `Delete ${doc.a}; its ${doc.slug} stops resolving` }, links.delete);
}
