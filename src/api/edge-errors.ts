// Failures answered before any route runs, in the API's error body like every other failure:
// Fastify's router (a URL whose percent-encoding is not UTF-8, a path segment over maxParamLength)
// and Node's HTTP parser (a malformed request line, headers or URL too large, a bad
// Content-Length...), which Fastify hands to its clientErrorHandler with only the socket to write to.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, sendError } from './error-handler.js';

/** Fastify's `frameworkErrors` option: the router's own refusals. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_BAD_URL') {
    void sendError(reply, 400, 'BAD_URL', 'the URL is not valid: a percent-encoded part is not UTF-8 text');
  } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void sendError(reply, 414, 'URI_TOO_LONG', 'a segment of the URL path is too long');
  } else {
    request.log.error({ err: error }, 'request failed before routing');
    void sendError(reply, 500, 'INTERNAL_ERROR', 'internal server error');
  }
}

interface ParserError extends Error {
  code?: string;
  /** What the parser held when it failed (a Buffer; Fastify's typings draw it otherwise). */
  rawPacket?: unknown;
}

/** The longest request line taken for a URL rather than headers when the parser overflows. */
const REQUEST_LINE_SHARE = 8_192;

function classify(err: ParserError): { status: number; code: string; message: string } {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'REQUEST_TIMEOUT', message: 'the request was not received in time' };
    case 'HPE_HEADER_OVERFLOW': {
      // The parser says only "too large"; a request line that has not ended early is the URL's fault.
      const raw = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : undefined;
      const lineEnd = raw ? raw.indexOf('\r\n') : 0;
      if (raw && (lineEnd < 0 || lineEnd > REQUEST_LINE_SHARE))
        return { status: 414, code: 'URI_TOO_LONG', message: 'the URL is too long' };
      return { status: 431, code: 'HEADERS_TOO_LARGE', message: 'the request headers are too large' };
    }
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { status: 400, code: 'INVALID_CONTENT_LENGTH', message: 'the Content-Length header is not valid' };
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 400, code: 'MALFORMED_BODY', message: 'the request body is not validly framed' };
    case 'HPE_INVALID_METHOD':
    case 'HPE_INVALID_URL':
    case 'HPE_INVALID_VERSION':
      return { status: 400, code: 'MALFORMED_REQUEST', message: 'the request line is not valid HTTP' };
    default:
      return { status: 400, code: 'MALFORMED_REQUEST', message: 'the request is not valid HTTP' };
  }
}

/** Fastify's `clientErrorHandler` option (`this` is the Fastify instance). */
export function answerClientError(this: Pick<FastifyInstance, 'log'>, err: ParserError, socket: Socket): void {
  // A reset or closed connection has no one left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, code, message } = classify(err);
  this.log.debug({ err, status }, 'malformed request');
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(errorBody(status, code, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * From the first moment of a shutdown, requests still arriving on open connections get the API's
 * 503 (Fastify's return503OnClosing, which this replaces, answers its own body) with
 * Connection: close, so keep-alive clients move to another instance. Runs first, before any
 * authentication or store is touched. Needs `return503OnClosing: false` on the instance.
 */
export function registerShutdownAnswer(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // Callback style: this runs on every request. Answering from the hook ends it (no done()).
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    reply.header('connection', 'close').header('retry-after', '1');
    void sendError(reply, 503, 'SHUTTING_DOWN', 'the service is shutting down; retry the request');
  });
}
