// One root pino logger for the process; modules take `log.child({ module })` from it.
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

export function createLogger(options: { level: string; pretty: boolean; name?: string; destination?: DestinationStream }): Logger {
  const base: LoggerOptions = {
    name: options.name ?? 'signpost',
    level: options.level,
    redact: { paths: redactPaths, censor: '[redacted]' },
  };
  if (options.pretty) {
    return pino({ ...base, transport: { target: 'pino-pretty', options: { colorize: true } } });
  }
  return options.destination ? pino(base, options.destination) : pino(base);
}
