// Typed application errors: thrown anywhere, rendered once by the API's error handler into the
// spec's error body {status, error, message, timestamp} plus a machine-readable `code`.

export interface AppErrorOptions {
  /** Extra headers the answer must carry (Retry-After on 429, for example). */
  headers?: Record<string, string>;
  /** Machine-readable detail, such as the offending field. */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  readonly details: Record<string, unknown> | undefined;

  constructor(status: number, code: string, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.headers = options.headers ?? {};
    this.details = options.details;
  }
}

export const badRequest = (code: string, message: string, details?: Record<string, unknown>) =>
  new AppError(400, code, message, details === undefined ? {} : { details });

export const unauthorized = (code: string, message: string) => new AppError(401, code, message);

export const forbidden = (code: string, message: string) => new AppError(403, code, message);

export const notFound = (code: string, message: string) => new AppError(404, code, message);

export const conflict = (code: string, message: string, details?: Record<string, unknown>) =>
  new AppError(409, code, message, details === undefined ? {} : { details });

export const tooManyRequests = (code: string, message: string, retryAfterSeconds: number) =>
  new AppError(429, code, message, {
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
