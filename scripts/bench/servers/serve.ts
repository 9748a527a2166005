import type { FastifyInstance } from 'fastify';

const CLOSE_TIMEOUT_MS = 5_000;

/**
 * Listens on a free loopback port, tells the runner the port as one JSON line on stdout, and
 * closes on SIGTERM/SIGINT or when stdin ends: the runner holds our stdin open, so if it dies
 * without cleaning up (even by SIGKILL) we still go away instead of lingering as an orphan.
 */
export async function serve(
  app: FastifyInstance,
  onClosed: () => Promise<void> = async () => {},
): Promise<void> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not a TCP address');
  process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);

  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    setTimeout(() => process.exit(1), CLOSE_TIMEOUT_MS).unref();
    app
      .close()
      .then(onClosed)
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
  // The runner asks for a full collection before it reads our memory (runs with --expose-gc),
  // so garbage from start-up or a previous scenario does not count as the scenario's cost.
  process.on('SIGUSR2', () =>
    globalThis.gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' }),
  );
  process.stdin.on('end', close);
  process.stdin.resume();
}

/** Start-up errors go to stderr with a non-zero exit, which the runner reports. */
export function failStartup(error: unknown): never {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
  process.exit(1);
}
