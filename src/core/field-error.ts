// Input a service refuses because of one field. The service names the field in its own terms; the
// API says where the field sat in the request when it answers (see src/api/schemas/field-errors.ts).
import { DomainError, invalid } from '../shared/errors.js';

/** `field` empty: the input as a whole is at fault (a combination of fields). */
export const invalidField = (field: string, problem: string) =>
  invalid('VALIDATION_FAILED', field === '' ? problem : `${field}: ${problem}`, { field, problem });

/** The field and problem of an invalidField error; undefined for any other error. */
export function fieldProblemOf(err: unknown): { field: string; problem: string } | undefined {
  if (!(err instanceof DomainError) || err.kind !== 'invalid') return undefined;
  const { field, problem } = err.details ?? {};
  return typeof field === 'string' && typeof problem === 'string' ? { field, problem } : undefined;
}
