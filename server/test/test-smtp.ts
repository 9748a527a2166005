import type { AddressInfo, Socket } from 'node:net';
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
 * - `failNext(fault, count = 1)`: the next `count` messages meet `fault` (an SmtpFault)
 *   instead of a plain "250 OK", in the order faults were asked for; the messages after
 *   them are accepted as usual. `clear()` forgets faults not used yet.
 */
export interface TestSmtp {
  url: string;
  port: number;
  readonly messages: readonly ReceivedMail[];
  waitForMessage(to: string, options?: WaitOptions): Promise<ReceivedMail>;
  failNext(fault: SmtpFault, count?: number): void;
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

/** What a misbehaving server does to one message (the faults a client must live through). */
export type SmtpFault =
  /** Refuses the message at the end of its data with this reply (421 also hangs up). */
  | { reply: number; message?: string }
  /** Takes the message (it is in `messages`), then hangs up before saying "250 OK". */
  | { dropAfterData: true }
  /** Answers the message's MAIL FROM only after this long: a stall if the client gives up first. */
  | { silenceMs: number };

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
  const faults: SmtpFault[] = [];
  // The fault each connection's current message meets, taken at its MAIL FROM.
  const faultOf = new Map<string, SmtpFault>();
  // Client sockets by their port (all on 127.0.0.1), so a fault can hang up on one.
  const sockets = new Map<number, Socket>();
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
    onMailFrom(_address, session, callback) {
      const fault = faults.shift();
      if (fault) faultOf.set(session.id, fault);
      else faultOf.delete(session.id);
      if (fault && 'silenceMs' in fault) setTimeout(() => callback(), fault.silenceMs);
      else callback();
    },
    onRcptTo(address, _session, callback) {
      const reason = options.rejectRecipient?.(address.address);
      if (reason === undefined) return callback();
      callback(Object.assign(new Error(reason), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const fault = faultOf.get(session.id);
      simpleParser(stream).then(
        (parsed) => {
          if (fault && 'reply' in fault) {
            const reason = fault.message ?? 'Try again later';
            return callback(Object.assign(new Error(reason), { responseCode: fault.reply }));
          }
          const mail = toReceivedMail(parsed, session.envelope);
          messages.push(mail);
          for (const waiter of waiters) {
            if (isFor(mail, waiter.to) && waiter.match(mail)) {
              waiters.delete(waiter);
              waiter.resolve(mail);
            }
          }
          if (fault && 'dropAfterData' in fault) sockets.get(session.remotePort)?.destroy();
          else callback();
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
  });

  server.server.on('connection', (socket: Socket) => {
    const port = socket.remotePort ?? 0;
    sockets.set(port, socket);
    socket.once('close', () => sockets.delete(port));
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
    failNext(fault, count = 1) {
      for (let i = 0; i < count; i += 1) faults.push(fault);
    },
    clear() {
      messages.length = 0;
      faults.length = 0;
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
