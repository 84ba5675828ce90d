// The mail the service wrote to its outbox (no SMTP_URL), oldest first, as a reader of the .eml
// files sees it: recipient, subject and plain text.
import fs from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import type { TestService } from './service.js';

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

export async function readOutbox(svc: Pick<TestService, 'config'>): Promise<OutboxMail[]> {
  const dir = path.join(svc.config.stores.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  const mails = [];
  for (const file of fs.readdirSync(dir).sort()) {
    const mail = await simpleParser(fs.readFileSync(path.join(dir, file)));
    const to = mail.to && !Array.isArray(mail.to) ? (mail.to.value[0]?.address ?? '') : '';
    mails.push({ to, subject: mail.subject ?? '', text: mail.text ?? '' });
  }
  return mails;
}
