// Keys, tokens and PII never reach a log line.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/shared/logger.js';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, log: createLogger({ level: 'info', pretty: false, destination }) };
}

describe('logger redaction', () => {
  it('censors credentials in request headers', () => {
    const { lines, log } = capture();
    log.info({ req: { headers: { 'x-api-key': 'sp_live_secret', authorization: 'Bearer tok', 'x-mobile-app-api-key': 'mk', cookie: 'c=1', accept: 'text/html' } } }, 'request');
    const text = lines.join('');
    for (const secret of ['sp_live_secret', 'Bearer tok', '"mk"', 'c=1']) expect(text).not.toContain(secret);
    expect(text).toContain('text/html');
    expect(text).toContain('[redacted]');
  });

  it('censors secrets and PII one level down in any object', () => {
    const { lines, log } = capture();
    log.info({ user: { email: 'kim@example.com', phone: '+821012345678', name: 'Kim' }, partner: { sharedSecret: 'shh', apiKey: 'k' } }, 'identify');
    const text = lines.join('');
    for (const secret of ['kim@example.com', '+821012345678', 'shh', '"k"']) expect(text).not.toContain(secret);
    expect(text).toContain('Kim');
  });
});
