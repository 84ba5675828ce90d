// One place renders every failure as the API's error body {status, error, message, timestamp}
// plus `code`, and on a 400 `details`: the refused fields, one entry each. Our AppErrors, schema validation, Fastify's own parsing errors, values the database
// refused (a 400: the input was at fault), unknown routes.
// A 5xx never carries internals to the client; it is logged with the request id instead.
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { fieldProblemOf } from '../core/field-error.js';
import { inputFaultOf } from '../core/input-fault.js';
import { isDomainError, type DomainError, type ErrorKind } from '../shared/errors.js';
import { errorLanguageOf, localizedMessage } from './error-messages.js';
import type { ErrorBody, FieldError } from './schemas/common.js';

/** The HTTP status of each kind of domain error. */
const STATUS_OF_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  gone: 410,
  conflict: 409,
  unprocessable: 422,
  limited: 429,
  too_large: 413,
  unavailable: 503,
};

export const httpStatusOf = (err: DomainError): number => STATUS_OF_KIND[err.kind];

/** Headers a domain error asks for: when to try again. */
export function httpHeadersOf(err: DomainError): Record<string, string> {
  return err.retryAfterSeconds === undefined ? {} : { 'retry-after': String(err.retryAfterSeconds) };
}

/**
 * The error body; a 400 (the input was at fault) lists the refused fields, none when no one field
 * is; another status lists them when there are (a 403 naming the scope a key lacks).
 */
export function errorBody(status: number, code: string, message: string, details: FieldError[] = []): ErrorBody {
  return {
    status,
    error: STATUS_CODES[status] ?? 'Error',
    message,
    timestamp: new Date().toISOString(),
    code,
    ...(status === 400 || details.length > 0 ? { details } : {}),
  };
}

/** The error body, its message in the caller's language (Accept-Language: Korean or English). */
export function sendError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  details?: FieldError[],
): FastifyReply {
  const language = errorLanguageOf(reply.request.headers['accept-language']);
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .header('content-language', language)
    .send(errorBody(status, code, localizedMessage(language, code, message), details));
}

/** The refused field a domain error names, as `details`; none for any other error. */
function detailsOf(err: unknown): FieldError[] {
  const fp = fieldProblemOf(err);
  return fp && fp.field !== '' ? [{ field: fp.field, message: fp.problem }] : [];
}

/** Fastify's own client errors, mapped to our codes and plain messages. */
const FASTIFY_CODES: Record<string, { code: string; message?: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Content-Type must be application/json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'EMPTY_BODY', message: 'the request body is empty; send a JSON object' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'MALFORMED_JSON', message: 'the request body is not valid JSON' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'BODY_TOO_LARGE', message: 'the request body is too large' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'INVALID_CONTENT_LENGTH' },
  FST_ERR_VALIDATION: { code: 'VALIDATION_FAILED' },
};

/**
 * A schema refusal: the message names the first five problems (`body.url: …; body.title: …`);
 * `details` every refused field once, by its dotted path in the body (`routingRules.0.url`) or the
 * name of the query or path parameter. A problem of the part as a whole names no field.
 */
function describeValidation(
  context: string | undefined,
  issues: Array<{ instancePath: string; message?: string | undefined }>,
): { message: string; details: FieldError[] } {
  const fields = issues.map((i) => i.instancePath.replace(/^\//, '').replace(/\//g, '.'));
  const parts = issues.slice(0, 5).map((issue, n) => {
    const field = fields[n];
    const where = field === '' ? (context ?? 'request') : `${context ? `${context}.` : ''}${field}`;
    return `${where}: ${issue.message ?? 'is invalid'}`;
  });
  const details = new Map<string, string>();
  issues.forEach((issue, n) => {
    const field = fields[n]!;
    if (field !== '' && !details.has(field)) details.set(field, issue.message ?? 'is invalid');
  });
  return { message: parts.join('; '), details: [...details].map(([field, message]) => ({ field, message })) };
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isDomainError(err)) {
      for (const [name, value] of Object.entries(httpHeadersOf(err))) reply.header(name, value);
      const status = httpStatusOf(err);
      if (status >= 500) request.log.error({ err }, 'request failed');
      return sendError(reply, status, err.code, err.message, detailsOf(err));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const { message, details } = describeValidation(err.validationContext, err.validation);
      return sendError(reply, 400, 'VALIDATION_FAILED', message, details);
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause.issues }, 'response did not match its schema');
      return sendError(reply, 500, 'INTERNAL_ERROR', 'internal server error');
    }
    // The database refused a value the caller sent: the caller's mistake, not the service's.
    const inputFault = inputFaultOf(err);
    if (inputFault) {
      request.log.warn({ err }, 'the database refused a value of the request');
      return sendError(reply, 400, inputFault.code, inputFault.message);
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      const known = err.code ? FASTIFY_CODES[err.code] : undefined;
      const message = known?.message ?? err.message;
      return sendError(reply, status, known?.code ?? 'BAD_REQUEST', message);
    }
    request.log.error({ err }, 'request failed');
    return sendError(reply, 500, 'INTERNAL_ERROR', 'internal server error');
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, 'ROUTE_NOT_FOUND', `no route for ${request.method} ${request.url.split('?')[0]}`),
  );
}
