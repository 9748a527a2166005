import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on 127.0.0.1 for tests (Vitest, Playwright, scripts: it imports no test
 * runner). Point the app at it with SMTP_URL and read what the app sent:
 *
 *   const smtp = await startTestSmtp();            // free port; no TLS, any or no AUTH
 *   const { app } = await createTestApp({ SMTP_URL: smtp.url });
 *   const mail = await smtp.waitForMessage('nina@example.com', { timeoutMs: 5_000 });
 *   mail.subject; mail.text; mail.html; mail.links[0]; mail.from.address; mail.parsed
 *   smtp.messages;  smtp.clear();  await smtp.close();
 *
 * - `url`: 'smtp://127.0.0.1:<port>', the value for SMTP_URL.
 * - `messages`: every message accepted so far, oldest first.
 * - `waitForMessage(to, { timeoutMs = 5000, match })`: the newest message already received
 *   for `to` (an envelope recipient, compared case-insensitively) that passes `match`,
 *   else the next one to arrive; rejects after `timeoutMs`. A message is stored before the
 *   server answers "250 OK", so once the app's `mailer.send()` (or the HTTP request that
 *   called it) has finished, the message is already here. To wait for a second message to
 *   the same address, `clear()` first or pass `match`.
 * - `clear()`: forgets the received messages (say, in `beforeEach`).
 * - `close()`: stops the server, dropping connections still open after a short grace.
 * - option `rejectRecipient(address)`: return a reason to refuse that RCPT TO with a 550
 *   (a bounce as a real server gives it), or undefined to accept.
 */
export interface TestSmtp {
  url: string;
  port: number;
  readonly messages: readonly ReceivedMail[];
  waitForMessage(to: string, options?: WaitOptions): Promise<ReceivedMail>;
  clear(): void;
  close(): Promise<void>;
}

export interface ReceivedMail {
  /** SMTP envelope, as the client gave it in MAIL FROM and RCPT TO. */
  envelope: { from: string; to: string[] };
  /** The From header's first address. */
  from: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
  /** Every http(s) link in the plain-text part, in order. */
  links: string[];
  /** Everything else mailparser knows: headers, attachments, the To header … */
  parsed: ParsedMail;
}

export interface WaitOptions {
  timeoutMs?: number;
  match?: (mail: ReceivedMail) => boolean;
}

export interface TestSmtpOptions {
  rejectRecipient?: (address: string) => string | undefined;
  /** A fixed port (Playwright's mail catcher); a free one by default. */
  port?: number;
}

interface Waiter {
  to: string;
  match: (mail: ReceivedMail) => boolean;
  resolve: (mail: ReceivedMail) => void;
}

export async function startTestSmtp(options: TestSmtpOptions = {}): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<Waiter>();
  const isFor = (mail: ReceivedMail, to: string) =>
    mail.envelope.to.some((address) => address.toLowerCase() === to.toLowerCase());

  const server = new SMTPServer({
    secure: false,
    // Without TLS on offer nodemailer stays in plain text, so no certificate is needed.
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    // A reverse DNS lookup of 127.0.0.1 per connection only slows the tests down.
    disableReverseLookup: true,
    closeTimeout: 200,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'test' });
    },
    onRcptTo(address, _session, callback) {
      const reason = options.rejectRecipient?.(address.address);
      if (reason === undefined) return callback();
      callback(Object.assign(new Error(reason), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          const mail = toReceivedMail(parsed, session.envelope);
          messages.push(mail);
          for (const waiter of waiters) {
            if (isFor(mail, waiter.to) && waiter.match(mail)) {
              waiters.delete(waiter);
              waiter.resolve(mail);
            }
          }
          callback();
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitForMessage(to, { timeoutMs = 5_000, match = () => true } = {}) {
      const found = messages.findLast((mail) => isFor(mail, to) && match(mail));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          to,
          match,
          resolve: (mail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const seen = messages.map((mail) => mail.envelope.to.join(',')).join('; ') || 'none';
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms (received for: ${seen})`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    clear() {
      messages.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function toReceivedMail(
  parsed: ParsedMail,
  envelope: { mailFrom: false | { address: string }; rcptTo: { address: string }[] },
): ReceivedMail {
  const from = parsed.from?.value[0];
  const text = parsed.text ?? '';
  return {
    envelope: {
      from: envelope.mailFrom ? envelope.mailFrom.address : '',
      to: envelope.rcptTo.map((recipient) => recipient.address),
    },
    from: { name: from?.name ?? '', address: from?.address ?? '' },
    subject: parsed.subject ?? '',
    text,
    html: typeof parsed.html === 'string' ? parsed.html : '',
    links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
    parsed,
  };
}
