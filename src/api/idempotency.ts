// The Idempotency-Key header of the create endpoints: a retry with the same key within 24 hours
// answers the first result (and says so in Idempotent-Replayed) instead of creating again.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type IdempotencyService, requestFingerprint } from '../core/links/idempotency.service.js';
import { callerOf } from './request-caller.js';
import { refusedField } from '../core/field-error.js';

const KEY = /^[\x21-\x7e]{1,255}$/;
const KEY_PROBLEM = 'must be 1 to 255 visible ASCII characters';

/** The header as the OpenAPI document describes it. */
export const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .describe(
      'up to 255 visible ASCII characters, unique per request (a UUID): a retry with the same key within 24 hours answers the first result; the same key with another body is 422',
    ),
});

/** Sends `status` with what `work` answers, once per Idempotency-Key when the request carries one. */
export async function sendOnce(
  request: FastifyRequest,
  reply: FastifyReply,
  idempotency: IdempotencyService,
  operation: string,
  status: number,
  work: () => Promise<unknown>,
): Promise<FastifyReply> {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return reply.code(status).send(await work());
  if (typeof key !== 'string' || !KEY.test(key))
    throw refusedField('VALIDATION_FAILED', `Idempotency-Key: ${KEY_PROBLEM}`, 'Idempotency-Key', KEY_PROBLEM);
  const answer = await idempotency.once(
    callerOf(request).organization.id,
    operation,
    key,
    requestFingerprint(request.body),
    async () => ({ statusCode: status, body: await work() }),
  );
  if (answer.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(answer.statusCode).send(answer.body);
}
