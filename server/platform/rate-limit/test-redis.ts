import { randomUUID } from 'node:crypto';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { describe, it } from 'vitest';

/**
 * Declares tests that need a real Redis at TEST_REDIS_URL. Without one they are skipped
 * locally, with the reason as the test's name, and fail in CI, where skipping would let the
 * shared-counter behaviour go untested without anyone noticing.
 */
export function describeWithRedis(name: string, body: (url: string) => void | Promise<void>): void {
  const url = process.env.TEST_REDIS_URL;
  if (url) {
    describe(name, () => body(url));
  } else if (process.env.CI) {
    describe(name, () => {
      it('needs TEST_REDIS_URL in CI', () => {
        throw new Error('TEST_REDIS_URL is not set, so the Redis tests cannot run');
      });
    });
  } else {
    describe.skip(name, () => {
      it('skipped: TEST_REDIS_URL is not set (e.g. redis://127.0.0.1:6390)', () => {});
    });
  }
}

/** A key no other test, run or worker shares the same Redis with. */
export const uniqueKey = (label: string): string => `${label}-${randomUUID()}`;

export interface TcpProxy {
  url: string;
  /** Clients connected through the proxy right now. */
  connections(): number;
  /** Cuts every connection and stops listening: Redis "goes away" for its clients. */
  stop(): Promise<void>;
}

/** A loopback TCP proxy to the Redis at `target`, to take Redis away from one client. */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  const clients = new Set<Socket>();
  const upstreams = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    clients.add(client);
    upstreams.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      clients.delete(client);
      upstreams.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      socket.on('error', drop);
      socket.on('close', drop);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: proxyPort } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${proxyPort}`,
    connections: () => clients.size,
    stop: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of [...clients, ...upstreams]) socket.destroy();
      await closed;
    },
  };
}
