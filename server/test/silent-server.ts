import { type AddressInfo, createServer, type Socket } from 'node:net';

export interface SilentServer {
  /** A PostgreSQL URL that points at it. */
  url: string;
  /** Connections it has accepted so far. */
  accepted(): number;
  /** Drops every connection (its clients see an error at once) and stops listening. */
  close(): Promise<void>;
}

/**
 * A TCP server that accepts connections and never says a word: a database behind a
 * firewall that blackholes its answers, on loopback, so the wait is the client's own and
 * not the network's.
 */
export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    accepted: () => accepted,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
