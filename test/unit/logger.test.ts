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
  it('logs a request as its method, URL, host and address: never its headers', () => {
    const { lines, log } = capture();
    log.info(
      {
        req: {
          method: 'GET',
          url: '/x',
          host: 'h',
          ip: '1.2.3.4',
          headers: {
            'x-api-key': 'sp_live_secret',
            authorization: 'Bearer tok',
            'x-mobile-app-api-key': 'mk',
            cookie: 'c=1',
          },
        },
      },
      'request',
    );
    const text = lines.join('');
    for (const secret of ['sp_live_secret', 'Bearer tok', '"mk"', 'c=1']) expect(text).not.toContain(secret);
    expect(JSON.parse(text).req).toEqual({ method: 'GET', url: '/x', host: 'h', remoteAddress: '1.2.3.4' });
  });

  it('blanks sign-in tokens in logged URLs (partner sign-in, mail links)', () => {
    const { lines, log } = capture();
    log.info(
      { req: { method: 'GET', url: '/sso/callback?token=eyJhbGciOi.secret.sig&client_id=spc_1' } },
      'incoming request',
    );
    log.info({ req: { method: 'GET', url: '/console/auth/link?token=abcDEF123_-' } }, 'incoming request');
    const text = lines.join('');
    expect(text).not.toContain('eyJhbGciOi');
    expect(text).not.toContain('abcDEF123');
    expect(text).toContain('/sso/callback?token=[redacted]&client_id=spc_1');
  });

  it('censors secrets and PII one level down in any object', () => {
    const { lines, log } = capture();
    log.info(
      {
        user: { email: 'kim@example.com', phone: '+821012345678', name: 'Kim' },
        partner: { sharedSecret: 'shh', apiKey: 'k' },
      },
      'identify',
    );
    const text = lines.join('');
    for (const secret of ['kim@example.com', '+821012345678', 'shh', '"k"']) expect(text).not.toContain(secret);
    expect(text).toContain('Kim');
  });
});
