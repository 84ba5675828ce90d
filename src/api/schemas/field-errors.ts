// Services name the field at fault in their own terms (src/core/field-error.ts); clients read
// where it sat in the request: `query.startDate: ...`, `body.campaignId: ...`, `body: ...`, and the
// field itself in the error body's `details`.
import { fieldProblemOf, refusedField } from '../../core/field-error.js';
import { isDomainError } from '../../shared/errors.js';

/** Where a field sat: the names the API's messages use (`querystring` is Fastify's name for the query). */
export type RequestPart = 'body' | 'query' | 'querystring' | 'params';

/** A refused field of `part`: the message `part.field: problem` (`part: problem` for the whole part). */
export const invalidRequestField = (part: RequestPart, field: string, problem: string, code = 'VALIDATION_FAILED') =>
  refusedField(code, field === '' ? `${part}: ${problem}` : `${part}.${field}: ${problem}`, field, problem);

/** The error as the client sees it: a field error placed in `part`, any other unchanged. */
export function placeField(part: RequestPart, err: unknown): unknown {
  const fp = fieldProblemOf(err);
  if (!fp || fp.placed || !isDomainError(err)) return err;
  return invalidRequestField(part, fp.field, fp.problem, err.code);
}

/** Runs a service call whose input came from one part of the request. */
export async function fromRequestPart<T>(part: RequestPart, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw placeField(part, err);
  }
}
