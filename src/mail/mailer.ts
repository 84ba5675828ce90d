// Outgoing mail (sign-in links, warnings, reports with their chart inline). With an SMTP URL each message goes to that server; without one it
// is written as an .eml file to a local outbox and its link is logged, so a developer or a
// self-hoster who has no mail server can still follow it. Links are credentials: outside that
// outbox line, logs name only a masked recipient and the subject.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../shared/logger.js';

export interface MailMessage {
  to: string; // one address
  subject: string;
  text: string; // plain-text body
  html: string; // simple HTML body
  /** The one link the message carries (a sign-in link); logged at info only in outbox mode, so a developer without mail can follow it. */
  link?: string;
  /** Images the HTML shows by `cid:` (a report's chart). */
  inlineImages?: { cid: string; filename: string; contentType: string; content: Buffer }[];
  /** Extra header lines (List-Unsubscribe and List-Unsubscribe-Post of a report). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** 'smtp' or 'outbox' */
  readonly mode: 'smtp' | 'outbox';
  close(): Promise<void>;
}

/** `a***@example.com`: enough to tell recipients apart in a log, not enough to learn the address. */
function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 1 ? '***' : `${address.slice(0, 1)}***${address.slice(at)}`;
}

export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  log: Logger;
}): Mailer {
  const log = options.log.child({ module: 'mailer' });
  const envelope = (m: MailMessage) => ({
    from: options.from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html,
    ...(m.headers ? { headers: m.headers } : {}),
    ...(m.inlineImages
      ? {
          attachments: m.inlineImages.map((i) => ({
            cid: i.cid,
            filename: i.filename,
            contentType: i.contentType,
            content: i.content,
            contentDisposition: 'inline' as const,
          })),
        }
      : {}),
  });

  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      mode: 'smtp',
      async send(message) {
        await transport.sendMail(envelope(message));
        log.info({ to: maskAddress(message.to), subject: message.subject }, 'mail sent');
      },
      async close() {
        transport.close();
      },
    };
  }

  // The stream transport only composes the message (MIME, encodings, headers); nothing leaves the machine.
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    mode: 'outbox',
    async send(message) {
      const info = await composer.sendMail(envelope(message));
      const raw = info.message as Buffer; // a Buffer, not a stream: `buffer: true`
      await mkdir(options.outboxDir, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replaceAll(':', '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = path.join(options.outboxDir, name);
      // A reader watching for .eml files never sees half a message.
      const temp = `${file}.tmp`;
      try {
        await writeFile(temp, raw, { mode: 0o600, flag: 'wx' });
        await rename(temp, file);
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
      log.info(
        { to: maskAddress(message.to), subject: message.subject, file, link: message.link },
        'mail written to the outbox',
      );
    },
    async close() {
      composer.close();
    },
  };
}
