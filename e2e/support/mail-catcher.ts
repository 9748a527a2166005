import { createServer } from 'node:http';
import { startTestSmtp } from '../../server/test/test-smtp.ts';

// A real SMTP server for the Playwright run (started by playwright.config.ts before the
// app), with a small HTTP side so tests in the browser process can read what was sent:
//   GET /messages?to=<address>  → [{ subject, text, links, headers }] oldest first, headers
//                                 as sent (lower-case names, folded lines joined)
//   GET /healthz                → 200 once both sides listen
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 4318);
const httpPort = Number(process.env.E2E_MAIL_PORT ?? 4319);

const smtp = await startTestSmtp({ port: smtpPort });

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (url.pathname === '/healthz') {
    response.end('ok');
    return;
  }
  if (url.pathname === '/messages') {
    const to = url.searchParams.get('to')?.toLowerCase();
    const found = smtp.messages
      .filter((mail) => mail.envelope.to.some((address) => address.toLowerCase() === to))
      .map(({ subject, text, links, parsed }) => ({
        subject,
        text,
        links,
        // Raw header lines: mailparser turns some (List-Unsubscribe) into objects.
        headers: Object.fromEntries(
          parsed.headerLines.map(({ key, line }) => [
            key,
            line
              .slice(line.indexOf(':') + 1)
              .replace(/\r?\n(?=[ \t])/g, '')
              .trim(),
          ]),
        ),
      }));
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(found));
    return;
  }
  response.statusCode = 404;
  response.end();
});
server.listen(httpPort, '127.0.0.1');

const stop = async () => {
  server.close();
  await smtp.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
