// One root pino logger for the process; modules take `log.child({ module })` from it.
import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/** Keys, tokens, cookies and PII never reach a log line, wherever they sit in an object. */
const redactPaths = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-mobile-app-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.apiKey',
  '*.sharedSecret',
  '*.secret',
  '*.token',
  '*.password',
  '*.phone',
  '*.email',
];

/** Query parameters that carry credentials (sign-in links, partner tokens): blanked in logged URLs. */
const SECRET_QUERY = /([?&](?:token|client_secret|code)=)[^&#]*/gi;

const scrubUrl = (url: unknown): unknown => (typeof url === 'string' ? url.replace(SECRET_QUERY, '$1[redacted]') : url);

/**
 * The request as a request line logs it (Fastify's fields): the URL without its credentials, so a
 * debug log of /sso/callback or a sign-in link names neither token.
 */
function requestFields(req: { method?: unknown; url?: unknown; host?: unknown; ip?: unknown }) {
  return { method: req.method, url: scrubUrl(req.url), host: req.host, remoteAddress: req.ip };
}

/** A production install leaves the pretty printer out; pino would fail to start its transport. */
function prettyPrinterInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

export function createLogger(options: {
  level: string;
  pretty: boolean;
  name?: string;
  destination?: DestinationStream;
}): Logger {
  const base: LoggerOptions = {
    name: options.name ?? 'signpost',
    level: options.level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    serializers: { req: requestFields },
  };
  if (options.pretty && prettyPrinterInstalled()) {
    return pino({ ...base, transport: { target: 'pino-pretty', options: { colorize: true } } });
  }
  const log = options.destination ? pino(base, options.destination) : pino(base);
  if (options.pretty)
    log.warn('LOG_PRETTY is set, but pino-pretty (a development dependency) is not installed: logging JSON');
  return log;
}
