import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { clientAddress, type ProxyTrust } from '../../http/client-address.ts';
import { ClientConnection, type ConnectionContext } from './client-connection.ts';
import { ERROR_CODES, errorFrame, LIMITS, protocolProblem } from './protocol.ts';

export interface SocketServerOptions extends ConnectionContext {
  pongTimeoutMs: number;
  /** The proxies that may name the client (TRUST_PROXY), as Fastify's `request.ip` believes them. */
  trustProxy: ProxyTrust | false;
  /** How long closing clients get to answer the close frame (CLOSE_GRACE_MS; tests wait longer). */
  closeGraceMs?: number;
}

/** `/app/{key}`, where pusher-js connects. */
const APP_PATH = /^\/app\/([^/]+)$/;
/** How long closing clients get to answer the close frame before they are cut. */
const CLOSE_GRACE_MS = 1_000;

export function refuseUpgrade(
  socket: Duplex,
  status: number,
  reason: string,
  headers: Record<string, string> = {},
): void {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\n${lines.join('')}Content-Length: 0\r\n\r\n`,
  );
  socket.destroy();
}

/**
 * The websocket side of the built-in server, on the product's own HTTP server: accepts
 * upgrades at `/app/{key}`, greets with the socket id, pings clients that fall silent and
 * drops those that do not answer, and on shutdown asks every client to reconnect (4200),
 * which sends it to another process.
 */
export class SocketServer {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: LIMITS.clientMessageBytes,
    clientTracking: false,
    perMessageDeflate: false,
  });
  private readonly connections = new Set<ClientConnection>();
  /** Sockets per client address, counted from the upgrade request until the socket closes. */
  private readonly perAddress = new Map<string, number>();
  /** Departures still being announced (presence on Redis). */
  private readonly cleanups = new Set<Promise<void>>();
  private readonly sweeper: NodeJS.Timeout;
  private accepting = true;

  constructor(private readonly options: SocketServerOptions) {
    const activityMs = options.activityTimeoutS * 1000;
    const sweepMs = Math.min(5_000, Math.max(100, Math.min(activityMs, options.pongTimeoutMs) / 4));
    this.sweeper = setInterval(() => this.sweep(Date.now()), sweepMs);
    this.sweeper.unref();
  }

  /** Clients connected now (after the handshake). */
  get connectionCount(): number {
    return this.connections.size;
  }

  /** Takes an upgrade request if it is for us; false leaves it to another listener. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const key = APP_PATH.exec(url.pathname)?.[1];
    if (key === undefined) return false;
    if (!this.accepting) {
      refuseUpgrade(socket, 503, 'Service Unavailable');
      return true;
    }
    // Refused before the handshake, which the product's page takes for a network error (it
    // tries again after 1 s, then every 5 s: app/realtime/connection-policy.ts); the count
    // follows the TCP socket, so it covers failed handshakes too.
    const address = clientAddress(request, this.options.trustProxy);
    const open = this.perAddress.get(address) ?? 0;
    if (open >= this.options.limits.connectionsPerAddress) {
      refuseUpgrade(socket, 503, 'Service Unavailable', { 'Retry-After': '5' });
      return true;
    }
    this.perAddress.set(address, open + 1);
    socket.once('close', () => {
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
    });
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      // The protocol's own refusals: an error frame, then a close with the same code.
      if (key !== this.options.app.key) {
        ws.send(errorFrame(ERROR_CODES.appKeyUnknown, `App key ${key.slice(0, 40)} not found`));
        ws.close(ERROR_CODES.appKeyUnknown, 'App key not found');
        return;
      }
      const problem = protocolProblem(url.searchParams.get('protocol'));
      if (problem) {
        ws.send(errorFrame(problem.code, problem.message));
        ws.close(problem.code, problem.message);
        return;
      }
      const connection = new ClientConnection(ws, this.options);
      this.connections.add(connection);
      ws.on('message', (data, isBinary) => connection.receive(data, isBinary));
      // A frame over maxPayload, or a broken socket: ws closes it (1009 for the former).
      ws.on('error', (error) =>
        this.options.log.debug({ err: error, socketId: connection.socketId }, 'websocket error'),
      );
      ws.on('close', () => {
        this.connections.delete(connection);
        const cleanup = connection.closed();
        this.cleanups.add(cleanup);
        void cleanup.finally(() => this.cleanups.delete(cleanup));
      });
      connection.open();
    });
    return true;
  }

  /** Stops taking clients, asks the connected ones to reconnect elsewhere, and waits. */
  async close(): Promise<void> {
    this.accepting = false;
    clearInterval(this.sweeper);
    const sockets = [...this.connections];
    for (const connection of sockets) connection.close(ERROR_CODES.reconnect, 'Server closing');
    const graceMs = this.options.closeGraceMs ?? CLOSE_GRACE_MS;
    await this.drained(graceMs);
    for (const connection of this.connections) connection.terminate();
    await this.drained(graceMs);
    await Promise.all([...this.cleanups]);
    this.wss.close();
  }

  /** Waits until every socket has closed (its cleanup started), or the time is up. */
  private async drained(withinMs: number): Promise<void> {
    const deadline = Date.now() + withinMs;
    while (this.connections.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  private sweep(now: number): void {
    const activityMs = this.options.activityTimeoutS * 1000;
    for (const connection of this.connections) {
      if (connection.pingSentAt !== undefined) {
        if (now - connection.pingSentAt > this.options.pongTimeoutMs) {
          connection.close(ERROR_CODES.pongTimeout, 'Pong reply not received');
        }
      } else if (now - connection.lastSeen > activityMs) {
        connection.ping(now);
      }
    }
  }
}
