import { randomUUID } from 'node:crypto';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

// The one rule for tests that need Redis (run, fail when services are required, else skip)
// lives in server/test/test-services.ts; re-exported for the tests that import it from here.
export { describeWithRedis } from '../../test/test-services.ts';

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
