// The mailer against a real SMTP peer and against its outbox: Korean text survives both, the outbox
// logs the link (and only a masked address), and a refused delivery reaches the caller.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { simpleParser } from 'mailparser';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createMailer, type MailMessage } from '../../src/mail/mailer.js';
import { startSmtpPeer } from '../support/smtp-peer.js';

const FROM = 'Signpost <no-reply@signpost.test>';

const message: MailMessage = {
  to: 'kim.minji@example.com',
  subject: 'Signpost 로그인 링크',
  text: '안녕하세요! 아래 링크로 로그인하세요:\nhttps://signpost.test/sign-in?token=abc123\n',
  html: '<p>안녕하세요! <a href="https://signpost.test/sign-in?token=abc123">로그인</a></p>',
  link: 'https://signpost.test/sign-in?token=abc123',
};

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, log: pino({ level: 'info' }, stream) };
}

describe('mailer, smtp mode', () => {
  it('delivers the text and HTML parts, UTF-8 intact, to a real SMTP peer', async () => {
    const peer = await startSmtpPeer();
    const { lines, log } = capture();
    const mailer = createMailer({ smtpUrl: peer.url, from: FROM, outboxDir: '/nonexistent', log });
    try {
      expect(mailer.mode).toBe('smtp');
      await mailer.send(message);
      const mail = await peer.waitFor((m) => m.to.includes(message.to));
      expect(mail.from).toBe('no-reply@signpost.test');
      expect(mail.to).toEqual([message.to]);
      expect(mail.subject).toBe(message.subject);
      expect(mail.text.trim()).toBe(message.text.trim());
      expect(mail.html.trim()).toBe(message.html);
      expect(mail.raw).toMatch(/multipart\/alternative/i);

      const text = JSON.stringify(lines);
      expect(lines.find((l) => l.msg === 'mail sent')).toMatchObject({
        to: 'k***@example.com',
        subject: message.subject,
      });
      for (const secret of [message.to, message.link!, 'abc123']) expect(text).not.toContain(secret);
    } finally {
      await mailer.close();
      await peer.close();
    }
  });

  it('rejects when the server refuses the recipient', async () => {
    const peer = await startSmtpPeer({ refuseRecipient: (address) => address.endsWith('@refused.test') });
    const { lines, log } = capture();
    const mailer = createMailer({ smtpUrl: peer.url, from: FROM, outboxDir: '/nonexistent', log });
    try {
      await expect(mailer.send({ ...message, to: 'nobody@refused.test' })).rejects.toThrow(/550|recipient/i);
      expect(peer.messages).toHaveLength(0);
      expect(lines.find((l) => l.msg === 'mail sent')).toBeUndefined();
    } finally {
      await mailer.close();
      await peer.close();
    }
  });
});

describe('mailer, outbox mode', () => {
  it('writes one parseable .eml, leaves no temp file and logs the link with a masked address', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'signpost-outbox-'));
    const outboxDir = path.join(dir, 'outbox'); // missing: the mailer makes it
    const { lines, log } = capture();
    const mailer = createMailer({ smtpUrl: undefined, from: FROM, outboxDir, log });
    try {
      expect(mailer.mode).toBe('outbox');
      await mailer.send(message);

      const files = readdirSync(outboxDir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-[0-9a-f]{8}\.eml$/);

      const raw = readFileSync(path.join(outboxDir, files[0]!));
      expect(raw.includes('\r\n')).toBe(false); // unix newlines
      const parsed = await simpleParser(raw);
      expect(parsed.subject).toBe(message.subject);
      expect(parsed.text?.trim()).toBe(message.text.trim());
      expect(String(parsed.html).trim()).toBe(message.html);
      expect(parsed.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });

      const line = lines.find((l) => l.msg === 'mail written to the outbox');
      expect(line).toMatchObject({
        to: 'k***@example.com',
        subject: message.subject,
        link: message.link,
        file: path.join(outboxDir, files[0]!),
      });
      expect(JSON.stringify(lines)).not.toContain(message.to);
    } finally {
      await mailer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
