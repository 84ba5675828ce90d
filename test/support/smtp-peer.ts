// A real SMTP server on loopback for tests: takes every message (no auth, no TLS), keeps it raw and
// decoded, and lets a test wait for the one it expects. `url` is what the mailer's smtpUrl takes;
// `?ignoreTLS=true` (nodemailer reads transport options from the URL's query) keeps the client plain.
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  text: string;
  html: string;
}

export interface SmtpPeer {
  /** `smtp://127.0.0.1:<port>?ignoreTLS=true` */
  url: string;
  messages: ReceivedMail[];
  waitFor(predicate: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export interface SmtpPeerOptions {
  /** Answer RCPT TO for these addresses with 550, as a server that knows no such mailbox. */
  refuseRecipient?: (address: string) => boolean;
}

export async function startSmtpPeer(options: SmtpPeerOptions = {}): Promise<SmtpPeer> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<(m: ReceivedMail) => void>();

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.refuseRecipient?.(address.address)) {
        callback(Object.assign(new Error(`no mailbox ${address.address}`), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (parsed) => {
            const mail: ReceivedMail = {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: parsed.html || '',
            };
            messages.push(mail);
            for (const waiter of waiters) waiter(mail);
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    // Port 0: the OS picks a free one, read back from the listening socket.
    const socket = server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((socket.address() as AddressInfo).port);
    });
  });

  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    messages,
    waitFor(predicate, timeoutMs = 5000) {
      const seen = messages.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = (m: ReceivedMail) => {
          if (!predicate(m)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(m);
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching mail within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
