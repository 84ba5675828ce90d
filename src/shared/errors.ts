// Domain errors: what went wrong, in the service's own terms. They say nothing of HTTP; the API's
// error mapper (src/api/error-handler.ts) turns each kind into a status and the API's error body
// {status, error, message, timestamp} plus the machine-readable `code`.

/** Why an operation was refused. */
export type ErrorKind =
  | 'invalid' // the input breaks a rule
  | 'unauthenticated' // no credentials, or wrong ones
  | 'forbidden' // the caller may not do this (role, plan, allow-list)
  | 'not_found'
  | 'gone' // existed, and has expired
  | 'conflict' // clashes with what exists (a taken alias, a duplicate)
  | 'unprocessable' // well-formed, but cannot be done as asked (an Idempotency-Key reused for another request)
  | 'limited' // a quota or rate limit: try again later
  | 'too_large' // the input is bigger than allowed
  | 'unavailable'; // the service cannot take it now (shutting down)

export interface DomainErrorOptions {
  /** Machine-readable detail, such as the offending field. */
  details?: Record<string, unknown>;
  /** For `limited`: when trying again can succeed. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class DomainError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(kind: ErrorKind, code: string, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.kind = kind;
    this.code = code;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

const withDetails = (details: Record<string, unknown> | undefined): DomainErrorOptions =>
  details === undefined ? {} : { details };

export const invalid = (code: string, message: string, details?: Record<string, unknown>) =>
  new DomainError('invalid', code, message, withDetails(details));

export const unauthenticated = (code: string, message: string) => new DomainError('unauthenticated', code, message);

export const forbidden = (code: string, message: string) => new DomainError('forbidden', code, message);

export const notFound = (code: string, message: string) => new DomainError('not_found', code, message);

export const gone = (code: string, message: string) => new DomainError('gone', code, message);

export const conflict = (code: string, message: string, details?: Record<string, unknown>) =>
  new DomainError('conflict', code, message, withDetails(details));

export const limitReached = (code: string, message: string, retryAfterSeconds: number) =>
  new DomainError('limited', code, message, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) });

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}
