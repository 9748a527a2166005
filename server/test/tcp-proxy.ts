import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

// A loopback TCP proxy in front of a real service (Redis), to take the service away from
// its clients and bring it back, or to make it answer slowly, without touching the service
// that other tests share.

export interface TcpProxy {
  /** The target's URL with the proxy's host and port (scheme and path kept). */
  url: string;
  /** Clients connected through the proxy right now. */
  connections(): number;
  /** Cuts every connection and stops listening: the service "goes away" for its clients. */
  stop(): Promise<void>;
  /** Listens again on the same port: the service "comes back". */
  start(): Promise<void>;
}

export interface TcpProxyOptions {
  /** Holds every chunk from the service back this long (a service under load). */
  delayMs?: number;
}

export async function startTcpProxy(
  target: string,
  options: TcpProxyOptions = {},
): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  const clients = new Set<Socket>();
  const upstreams = new Set<Socket>();
  let server: Server | undefined;
  let proxyPort = 0;

  const accept = (client: Socket) => {
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
    client.pipe(upstream);
    const { delayMs } = options;
    if (delayMs) {
      upstream.on('data', (chunk) =>
        setTimeout(() => {
          if (!client.destroyed) client.write(chunk);
        }, delayMs),
      );
    } else {
      upstream.pipe(client);
    }
  };

  const start = async () => {
    const listening = createServer(accept);
    server = listening;
    await new Promise<void>((resolve) => listening.listen(proxyPort, '127.0.0.1', resolve));
    proxyPort = (listening.address() as AddressInfo).port;
  };

  const stop = async () => {
    const closing = server;
    if (!closing) return;
    server = undefined;
    const closed = new Promise<void>((resolve) => closing.close(() => resolve()));
    for (const socket of [...clients, ...upstreams]) socket.destroy();
    await closed;
  };

  await start();
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(proxyPort);
  return { url: url.toString(), connections: () => clients.size, stop, start };
}
