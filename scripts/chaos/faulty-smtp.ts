import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTransport } from 'nodemailer';
import { SMTPServer } from 'smtp-server';

// An SMTP server in front of the mail catcher that fails the way real ones do, while it is
// told to: it drops the connection, answers 421 at the greeting or 451 to MAIL FROM, stalls
// 10 s before greeting, or passes the message on and then answers 421 (the answer lost after
// the message was taken: the sender must try again, the catcher then sees the same
// Message-ID twice). Otherwise it passes every message on as it came.

export type SmtpFault = 'drop' | 'refuse' | 'defer' | 'stall' | 'lost-answer';

export interface FaultySmtp {
  url: string;
  /** Faults on: each connection meets one at this rate (0 … 1), chosen at random. */
  setFaultRate(rate: number): void;
  /** How many of each fault were dealt, and messages passed on. */
  readonly counts: Record<SmtpFault | 'passed', number>;
  close(): Promise<void>;
}

const FAULTS: readonly SmtpFault[] = ['drop', 'refuse', 'defer', 'stall', 'lost-answer'];
/** The faults dealt in the SMTP session; a drop happens before there is one. */
const SESSION_FAULTS = FAULTS.filter((fault) => fault !== 'drop');
const STALL_MS = 10_000;

function smtpError(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

export async function startFaultySmtp(catcherUrl: string): Promise<FaultySmtp> {
  const relay = createTransport({ url: catcherUrl });
  const counts: FaultySmtp['counts'] = {
    drop: 0,
    refuse: 0,
    defer: 0,
    stall: 0,
    'lost-answer': 0,
    passed: 0,
  };
  let rate = 0;
  const faultOf = new Map<string, SmtpFault | undefined>();
  const pick = (): SmtpFault | undefined =>
    Math.random() < rate
      ? SESSION_FAULTS[Math.floor(Math.random() * SESSION_FAULTS.length)]
      : undefined;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    async onConnect(session, callback) {
      const fault = pick();
      faultOf.set(session.id, fault);
      if (fault === 'refuse') {
        counts.refuse += 1;
        return callback(smtpError(421, 'Service not available, closing transmission channel'));
      }
      if (fault === 'stall') {
        counts.stall += 1;
        await sleep(STALL_MS);
      }
      callback();
    },
    onMailFrom(_address, session, callback) {
      if (faultOf.get(session.id) === 'defer') {
        counts.defer += 1;
        return callback(smtpError(451, 'Requested action aborted: local error in processing'));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        };
        relay.sendMail({ envelope, raw: Buffer.concat(chunks) }).then(
          () => {
            if (faultOf.get(session.id) === 'lost-answer') {
              counts['lost-answer'] += 1;
              return callback(smtpError(421, 'Connection lost'));
            }
            counts.passed += 1;
            callback();
          },
          (error: Error) => callback(smtpError(451, `relay failed: ${error.message}`)),
        );
      });
    },
    onClose(session) {
      faultOf.delete(session.id);
    },
  });
  // A dropped connection: closed before the greeting, as a crashed or unreachable relay.
  server.server.prependListener('connection', (socket) => {
    if (rate > 0 && Math.random() < rate / FAULTS.length) {
      counts.drop += 1;
      socket.destroy();
    }
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    setFaultRate(value) {
      rate = value;
    },
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        relay.close();
        server.close(() => resolve());
      }),
  };
}
