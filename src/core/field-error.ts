// Input a service refuses because of one field. The error keeps the field and what is wrong with it
// apart from its message, so the API can answer them as the error body's `details` (one entry per
// refused field) while the message stays the sentence a person reads.
// Most services name the field in their own terms (`invalidField`) and the API says where it sat in
// the request when it answers (src/api/schemas/field-errors.ts); a service that knows the field
// came in the request body words the message itself (`invalidBodyField`).
import { DomainError, invalid } from '../shared/errors.js';

export interface FieldProblem {
  /** The field's dotted path (`url`, `routingRules.0.url`) or query parameter; empty: the input as a whole. */
  field: string;
  problem: string;
  /** The message already says where the field sat in the request: the API leaves it as it is. */
  placed: boolean;
}

/** `field` empty: the input as a whole is at fault (a combination of fields). */
export const invalidField = (field: string, problem: string) =>
  invalid('VALIDATION_FAILED', field === '' ? problem : `${field}: ${problem}`, { field, problem });

/** A refused field whose message is worded as the client reads it (`body.url: …`, or its own sentence). */
export const refusedField = (code: string, message: string, field: string, problem: string) =>
  invalid(code, message, { field, problem, placed: true });

/** A refused field of the request body: the message `body.<field>: <problem>`. */
export const invalidBodyField = (field: string, problem: string, code = 'VALIDATION_FAILED') =>
  refusedField(code, `body.${field}: ${problem}`, field, problem);

/** A call refused (403) for want of a right the credentials lack, named as the field (`scope`). */
export const deniedField = (code: string, message: string, field: string, problem: string) =>
  new DomainError('forbidden', code, message, { details: { field, problem, placed: true } });

/** The field and problem of a field error; undefined for any other error. */
export function fieldProblemOf(err: unknown): FieldProblem | undefined {
  if (!(err instanceof DomainError) || (err.kind !== 'invalid' && err.kind !== 'forbidden')) return undefined;
  const { field, problem, placed } = err.details ?? {};
  return typeof field === 'string' && typeof problem === 'string'
    ? { field, problem, placed: placed === true }
    : undefined;
}
