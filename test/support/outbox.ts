// The mail the service wrote to its outbox (no SMTP_URL), oldest first, as a reader of the .eml
// files sees it: recipient, subject, plain text, and for mail that has them its HTML, inline images
// and header lines.
import fs from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import type { TestService } from './service.js';

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments: { contentType: string; cid: string | undefined; filename: string | undefined; content: Buffer }[];
  /** Header lines, by lower-case name, as written. */
  headers: Map<string, string>;
}

export async function readOutbox(svc: Pick<TestService, 'config'>): Promise<OutboxMail[]> {
  const dir = path.join(svc.config.stores.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  const mails = [];
  for (const file of fs.readdirSync(dir).sort()) {
    // cid: links stay as written, so a test sees which inline image the HTML shows.
    const mail = await simpleParser(fs.readFileSync(path.join(dir, file)), { keepCidLinks: true });
    const to = mail.to && !Array.isArray(mail.to) ? (mail.to.value[0]?.address ?? '') : '';
    mails.push({
      to,
      subject: mail.subject ?? '',
      text: mail.text ?? '',
      html: typeof mail.html === 'string' ? mail.html : '',
      attachments: mail.attachments.map((a) => ({
        contentType: a.contentType,
        cid: a.cid,
        filename: a.filename,
        content: a.content,
      })),
      headers: new Map(mail.headerLines.map((h) => [h.key, h.line.slice(h.line.indexOf(':') + 1).trim()])),
    });
  }
  return mails;
}
