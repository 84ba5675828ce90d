// Safe retries of creates: a request sent again with the same Idempotency-Key within 24 hours
// gets the first request's answer instead of creating again; the same key with another request is
// refused (422), and a retry while the first is still under way waits its turn (409).
import { createHash } from 'node:crypto';
import { conflict, DomainError } from '../../shared/errors.js';
import type { IdempotentRequestsRepo } from '../../oltp/idempotent-requests.repo.js';

export interface Answer {
  statusCode: number;
  body: unknown;
}

/** A fingerprint of what a request asked for (its parsed body). */
export const requestFingerprint = (request: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify(request ?? null))
    .digest('base64url');

export function createIdempotencyService(deps: { repo: IdempotentRequestsRepo }) {
  return {
    /**
     * `work`'s answer, once per key: a repeat of the request gets the stored answer. A failure of
     * `work` is not stored (the retry runs it again).
     */
    async once(
      organizationId: number,
      operation: string,
      key: string,
      fingerprint: string,
      work: () => Promise<Answer>,
    ): Promise<Answer & { replayed: boolean }> {
      const stored = await deps.repo.claim(organizationId, operation, key, fingerprint);
      if (stored) {
        if (stored.requestHash !== fingerprint)
          throw new DomainError(
            'unprocessable',
            'IDEMPOTENCY_KEY_REUSED',
            'this Idempotency-Key was used with another request in the last 24 hours; use a new key',
          );
        if (stored.statusCode === null)
          throw conflict(
            'IDEMPOTENT_REQUEST_IN_PROGRESS',
            'a request with this Idempotency-Key is still under way; retry shortly',
          );
        return { statusCode: stored.statusCode, body: stored.response, replayed: true };
      }
      try {
        const answer = await work();
        await deps.repo.answer(organizationId, operation, key, answer.statusCode, answer.body);
        return { ...answer, replayed: false };
      } catch (err) {
        await deps.repo.release(organizationId, operation, key).catch(() => {});
        throw err;
      }
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
