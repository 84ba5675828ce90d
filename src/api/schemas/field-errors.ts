// Services name the field at fault in their own terms (src/core/field-error.ts); clients read
// where it sat in the request: `query.startDate: ...`, `body.campaignId: ...`, `body: ...`.
import { invalid } from '../../shared/errors.js';
import { fieldProblemOf } from '../../core/field-error.js';

export type RequestPart = 'body' | 'query';

/** The error as the client sees it: a field error placed in `part`, any other unchanged. */
export function placeField(part: RequestPart, err: unknown): unknown {
  const fp = fieldProblemOf(err);
  if (!fp) return err;
  return invalid(
    'VALIDATION_FAILED',
    fp.field === '' ? `${part}: ${fp.problem}` : `${part}.${fp.field}: ${fp.problem}`,
  );
}

/** Runs a service call whose input came from one part of the request. */
export async function fromRequestPart<T>(part: RequestPart, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw placeField(part, err);
  }
}
