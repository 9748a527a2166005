import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ZodError } from 'zod';
import {
  type EnrollResponse,
  enrollRequest,
  NODE_MESSAGES,
  type NodePeer,
  type PeersResponse,
  peersQuery,
  type ReportResponse,
  reportRequest,
  type UsageReport,
} from '#shared/contracts/vpn-node.ts';

// A stand-in of the node API (shared/contracts/vpn-node.ts) on a loopback port, for the
// agent's tests: it parses every request with the contract's schemas and counts reports the
// way the real API does (node-service.ts): per stream, only numbers past the last counted,
// so a batch sent again after a lost acknowledgement counts once. It can answer 503, close
// its port, or count a batch and hang up before answering.

export const STANDIN_TOKEN = 'standin-token-0123456789';

export interface CountedReport extends UsageReport {
  stream: string;
}

export class NodeApiStandin {
  token = STANDIN_TOKEN;
  /** A key enrolled before that the API keeps: another key is answered 409. */
  lockedKey: string | null = null;
  enrolledKey: string | null = null;
  settings: Omit<EnrollResponse, 'server_id' | 'name'> = {
    listen_port: 51820,
    interface_addresses: ['10.8.0.1/24', 'fd00:8::1/64'],
    report_interval_ms: 10_000,
    poll_wait_ms: 200,
  };
  version = 1;
  peers: NodePeer[] = [];
  retired = false;
  /** `down`: every call is answered 503. */
  mode: 'up' | 'down' = 'up';
  /** Report calls to count and then hang up on without an answer (a lost acknowledgement). */
  dropReportAnswers = 0;
  /** Every report counted, in the order counted. */
  readonly counted: CountedReport[] = [];
  /** Reports received again after they were counted, and not counted again. */
  duplicates = 0;
  /** Report calls received, with the size of each batch. */
  readonly reportCalls: number[] = [];
  /** When each changed peers answer went out. */
  readonly peerAnswers: Array<{ at: number; version: number }> = [];
  /** Requests the contract's schemas refused: a test expects none. */
  readonly refused: string[] = [];

  private stream: string | null = null;
  private countedSeq = 0;
  private readonly waiters = new Set<() => void>();
  private server: Server | null = null;
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Listens, on the port it had before when restarted. */
  async start(): Promise<void> {
    const server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        this.refused.push(String(error));
        if (!response.headersSent) send(response, 500, { code: 'internal' });
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Closes the port and every connection: the API is gone for the node. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    for (const wake of this.waiters) wake();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  setPeers(peers: NodePeer[]): void {
    this.peers = peers;
    this.version += 1;
    for (const wake of this.waiters) wake();
  }

  retire(): void {
    this.retired = true;
    this.setPeers([]);
  }

  /** The bytes counted for each key (or all keys), over every stream. */
  totals(publicKey?: string): { rx: number; tx: number } {
    const sum = { rx: 0, tx: 0 };
    for (const report of this.counted) {
      for (const peer of report.peers) {
        if (publicKey !== undefined && peer.public_key !== publicKey) continue;
        sum.rx += peer.rx;
        sum.tx += peer.tx;
      }
    }
    return sum;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const body = await readBody(request);
    if (this.mode === 'down') return send(response, 503, { code: 'unavailable' });
    if (request.headers.authorization !== `Bearer ${this.token}`) {
      return send(response, 401, { code: 'unauthenticated' });
    }
    try {
      if (request.method === 'POST' && url.pathname === '/api/node/v1/enroll') {
        const [status, answer] = this.enroll(enrollRequest.parse(body));
        return send(response, status, answer);
      }
      if (request.method === 'GET' && url.pathname === '/api/node/v1/peers') {
        const query = peersQuery.parse(Object.fromEntries(url.searchParams));
        const closed = new Promise<void>((resolve) => response.once('close', resolve));
        return send(response, 200, await this.peersAnswer(query.version, closed));
      }
      if (request.method === 'POST' && url.pathname === '/api/node/v1/report') {
        const answer = this.count(reportRequest.parse(body));
        if (this.dropReportAnswers > 0) {
          this.dropReportAnswers -= 1;
          request.socket.destroy();
          return;
        }
        return send(response, 200, answer);
      }
      send(response, 404, { code: 'not_found' });
    } catch (error) {
      if (!(error instanceof ZodError)) throw error;
      this.refused.push(`${url.pathname}: ${error.message}`);
      send(response, 422, { code: 'validation_failed' });
    }
  }

  private enroll(input: { public_key: string }): [number, unknown] {
    if (this.lockedKey !== null && this.lockedKey !== input.public_key) {
      return [409, { code: 'conflict', errors_info: [NODE_MESSAGES.keyMismatch] }];
    }
    this.enrolledKey = input.public_key;
    const answer: EnrollResponse = { server_id: 7, name: 'standin-1', ...this.settings };
    return [200, answer];
  }

  private async peersAnswer(since: number | undefined, closed: Promise<void>) {
    if (since === this.version) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, this.settings.poll_wait_ms);
        this.waiters.add(done);
        void closed.then(done);
      });
    }
    const answer: PeersResponse =
      since === this.version
        ? { version: this.version, changed: false, peers: [], retired: this.retired }
        : { version: this.version, changed: true, peers: this.peers, retired: this.retired };
    if (answer.changed) this.peerAnswers.push({ at: Date.now(), version: answer.version });
    return answer;
  }

  /** As the API: numbers past the last counted of the stream count, in order, once. */
  private count(input: { stream: string; reports: UsageReport[] }): ReportResponse {
    this.reportCalls.push(input.reports.length);
    const counted = this.stream === input.stream ? this.countedSeq : 0;
    for (const report of input.reports) {
      if (report.seq <= counted) this.duplicates += 1;
      else this.counted.push({ ...report, stream: input.stream });
    }
    const last = input.reports[input.reports.length - 1]?.seq ?? 0;
    this.stream = input.stream;
    this.countedSeq = Math.max(counted, last);
    return { acked_seq: this.countedSeq };
  }
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
