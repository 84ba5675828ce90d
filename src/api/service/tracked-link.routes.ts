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
import { withExpiresAt } from '../schemas/link.js';
import type { Page } from '../schemas/paging.js';
import { deleteById, listPage, readById, updateById } from './by-id.routes.js';

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

/** The service a kind of tracked link offers beside its create and update. */
interface TrackedLinks<Filter, R> {
  list(caller: Caller, filter: Filter, page: Page): Promise<{ items: R[]; total: number }>;
  get(caller: Caller, id: number): Promise<R>;
  delete(caller: Caller, id: number): Promise<void>;
}

/** A body as the core takes it: its expiry, under K, read as `expiresAt` (withExpiresAt). */
type Read<T, K extends string> = Omit<T, K> & { expiresAt?: Date | null };

/**
 * POST and GET `path`, GET, PUT and DELETE `path`/:id. The create's refusals from the core name
 * fields of its body. `a` names one record in the summaries ("a campaign"),
 * `many` the list ("campaigns"), `slug` the part of its address that stops resolving when it goes.
 * Both bodies give the expiry under `expiry.field`; the core is given the instant it means.
 */
export function trackedLinkRoutes<
  F extends z.ZodRawShape,
  K extends string,
  C extends z.ZodType<Partial<Record<K, unknown>>>,
  B extends z.ZodType<Partial<Record<K, unknown>>>,
  R,
>(
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
    expiry: { field: K; clock: () => Date };
  },
  links: TrackedLinks<z.output<z.ZodObject<F>>, R> & {
    create(caller: Caller, body: Read<z.output<C>, K>): Promise<R>;
    update(caller: Caller, id: number, body: Read<z.output<B>, K>): Promise<R>;
  },
  toJson: (record: R) => unknown,
): void {
  const { tags, security, item } = doc;
  const read = <T extends Partial<Record<K, unknown>>>(caller: Caller, body: T) =>
    withExpiresAt(caller, doc.expiry.field, body, doc.expiry.clock);
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
      sendOnce(request, reply, doc.idempotency, doc.createOperation, 201, async () => {
        const caller = callerOf(request);
        return toJson(await fromRequestPart('body', links.create(caller, read(caller, request.body as z.output<C>))));
      }),
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
    async (caller, id, body) => toJson(await links.update(caller, id, read(caller, body))),
  );
  deleteById(app, byId, { tags, security, summary: `Delete ${doc.a}; its ${doc.slug} stops resolving` }, links.delete);
}
