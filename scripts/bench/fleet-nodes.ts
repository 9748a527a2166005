import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Answer, call, type HttpTarget } from './fleet-http.ts';
import type { SeededNode } from './fleet-seed.ts';

// A fleet of simulated node agents (vpn-node/agent.ts's traffic, without WireGuard): each
// fetches its whole set of peers at start, then keeps one long poll open on the version it
// has, and sends a usage report every interval on a fixed schedule (a slow answer does not
// slow the rate), the nodes' schedules spread evenly over the interval. A report carries the
// traffic of the peers that moved, about 60 % of them, and omits the rest, as the agent does.

const PEERS = '/api/node/v1/peers';
const REPORT = '/api/node/v1/report';
/** Past the server's 25 s poll wait: a poll that outlives this is a fault. */
const POLL_TIMEOUT_MS = 40_000;
const REPORT_TIMEOUT_MS = 30_000;
const RETRY_MS = 1_000;
const MAX_FAULTS_KEPT = 5;
/** Peers with traffic in a report: 6 of every 10 (a node's busy share at a busy hour). */
const ACTIVE_OF_TEN = 6;

// Read without parsing: a poll's answer holds the whole set when it changed.
const CHANGED = /"changed":true/;
const VERSION = /"version":(\d+)/;
const ACKED = /"acked_seq":(\d+)/;

/** One call's figures; `at` is when it was sent (performance.now()). */
export interface Sample {
  at: number;
  ms: number;
  ok: boolean;
  /** The HTTP status; 0 when the call failed. */
  status: number;
}

export interface FleetOptions {
  reportIntervalMs: number;
  /** Node i starts (full fetch, then its poll) at i × spread / nodes after start. */
  startSpreadMs: number;
  peersPerNode: number;
  /** A node's open poll came back with a new set of peers, `body` the answer. */
  onPeersChanged(serverId: number, body: string, at: number): void;
}

interface NodeState {
  seeded: SeededNode;
  headers: Record<string, string>;
  version: number | undefined;
  /** A poll on the node's current version is open (a change would wake it). */
  polling: boolean;
  stream: string;
  seq: number;
  /** Each active peer's usage as JSON, up to the value of its `latest_handshake_at`. */
  usage: string[];
}

/** Bytes in the 10 s since the last report: spread from kilobytes to tens of megabytes. */
function traffic(node: number, peer: number): { rx: number; tx: number } {
  const spread = (peer * 7_919 + node * 104_729) % 5_000;
  return { rx: 20_000 + spread * 4_000, tx: 50_000 + spread * 9_000 };
}

export class SimulatedFleet {
  readonly reports: Sample[] = [];
  /** Whole sets answered at once: the start of each node, and the samples of sampleFullSets. */
  readonly fullSets: Sample[] = [];
  /** The first few faults, for the run's problems; `faultCount` says how many there were. */
  readonly faults: string[] = [];
  faultCount = 0;
  pollsTimedOut = 0;
  pollsChanged = 0;
  private readonly nodes: NodeState[];
  private readonly byServer = new Map<number, NodeState>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private ready = 0;
  private stopped = false;

  constructor(
    private readonly target: HttpTarget,
    seeded: SeededNode[],
    private readonly options: FleetOptions,
  ) {
    this.nodes = seeded.map((node) => ({
      seeded: node,
      headers: { authorization: `Bearer ${node.token}` },
      version: undefined,
      polling: false,
      stream: randomUUID(),
      seq: 0,
      usage: [],
    }));
    for (const node of this.nodes) this.byServer.set(node.seeded.serverId, node);
  }

  /** Nodes that have their set and a poll going. */
  get readyNodes(): number {
    return this.ready;
  }

  isPolling(serverId: number): boolean {
    return this.byServer.get(serverId)?.polling === true;
  }

  start(): void {
    const started = performance.now();
    const count = this.nodes.length;
    for (const [i, node] of this.nodes.entries()) {
      this.at(started + (i * this.options.startSpreadMs) / count, () => {
        void this.run(node, started + (i * this.options.reportIntervalMs) / count);
      });
    }
  }

  /**
   * Every `everyMs` one node (in turn) fetches its whole set again, as an agent does after a
   * restart or a failed poll: the latency of a poll that answers with a change at once.
   */
  sampleFullSets(everyMs: number): void {
    let turn = 0;
    const next = () => {
      if (this.stopped) return;
      const node = this.nodes[turn++ % this.nodes.length];
      if (node && node.version !== undefined) this.track(this.fetchSet(node, false));
      this.at(performance.now() + everyMs, next);
    };
    next();
  }

  /** Stops every schedule, lets the reports under way finish, and closes every socket. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
    this.target.agent.destroy();
  }

  private at(time: number, work: () => void): void {
    if (this.stopped) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (!this.stopped) work();
      },
      Math.max(0, time - performance.now()),
    );
    this.timers.add(timer);
  }

  private track<T>(promise: Promise<T>): void {
    this.inFlight.add(promise);
    void promise.finally(() => this.inFlight.delete(promise));
  }

  private async run(node: NodeState, firstSlot: number): Promise<void> {
    while (!this.stopped && !(await this.fetchSet(node, true))) await sleep(RETRY_MS);
    if (this.stopped) return;
    this.ready += 1;
    const interval = this.options.reportIntervalMs;
    // The node's first report slot after its start, then one every interval.
    const now = performance.now();
    const slot = firstSlot + Math.max(0, Math.ceil((now - firstSlot) / interval)) * interval;
    const report = (time: number) =>
      this.at(time, () => {
        this.track(this.report(node));
        report(time + interval);
      });
    report(slot);
    await this.poll(node);
  }

  /** The whole set at once (no version); `adopt` makes it the node's own, as at start. */
  private async fetchSet(node: NodeState, adopt: boolean): Promise<boolean> {
    let answer: Answer;
    try {
      answer = await call(this.target, 'GET', PEERS, node.headers, undefined, POLL_TIMEOUT_MS);
    } catch (error) {
      this.fault(`peers of server ${node.seeded.serverId}: ${String(error)}`);
      return false;
    }
    const ok = answer.status === 200 && CHANGED.test(answer.body);
    this.fullSets.push({
      at: performance.now() - answer.ms,
      ms: answer.ms,
      ok,
      status: answer.status,
    });
    if (!ok) {
      this.fault(`peers of server ${node.seeded.serverId} answered ${answer.status}`);
      return false;
    }
    const peers = this.readPeers(node, answer.body, adopt);
    if (peers !== this.options.peersPerNode) {
      this.fault(
        `server ${node.seeded.serverId} has ${peers} peers, not ${this.options.peersPerNode}`,
      );
    }
    return true;
  }

  /** Reads a whole set (JSON.parse: at start and on each change, not per poll). */
  private readPeers(node: NodeState, body: string, adopt: boolean): number {
    const answer = JSON.parse(body) as { version: number; peers: { public_key: string }[] };
    if (!adopt) return answer.peers.length;
    node.version = answer.version;
    const index = node.seeded.index;
    node.usage = answer.peers.flatMap((peer, j) => {
      if ((j * 7 + index) % 10 >= ACTIVE_OF_TEN) return [];
      const { rx, tx } = traffic(index, j);
      return [`{"public_key":"${peer.public_key}","rx":${rx},"tx":${tx},"latest_handshake_at":"`];
    });
    return answer.peers.length;
  }

  private async poll(node: NodeState): Promise<void> {
    while (!this.stopped) {
      node.polling = true;
      let answer: Answer;
      try {
        answer = await call(
          this.target,
          'GET',
          `${PEERS}?version=${node.version}`,
          node.headers,
          undefined,
          POLL_TIMEOUT_MS,
        );
      } catch (error) {
        node.polling = false;
        if (this.stopped) return;
        this.fault(`poll of server ${node.seeded.serverId}: ${String(error)}`);
        await sleep(RETRY_MS);
        continue;
      }
      node.polling = false;
      const at = performance.now();
      if (answer.status !== 200) {
        this.fault(`poll of server ${node.seeded.serverId} answered ${answer.status}`);
        await sleep(RETRY_MS);
      } else if (CHANGED.test(answer.body)) {
        this.pollsChanged += 1;
        this.readPeers(node, answer.body, true);
        this.options.onPeersChanged(node.seeded.serverId, answer.body, at);
      } else {
        this.pollsTimedOut += 1;
        const version = VERSION.exec(answer.body)?.[1];
        if (version !== undefined) node.version = Number(version);
      }
    }
  }

  private async report(node: NodeState): Promise<void> {
    node.seq += 1;
    const seq = node.seq;
    const takenAt = new Date().toISOString();
    // The handshakes a few seconds before the report, as WireGuard renews them every 2 min.
    const handshake = `${new Date(Date.now() - 7_000).toISOString()}"}`;
    const peers = node.usage.length > 0 ? `${node.usage.join(`${handshake},`)}${handshake}` : '';
    const cpu = 10 + ((seq * 13 + node.seeded.index) % 50);
    const body =
      `{"stream":"${node.stream}","reports":[{"seq":${seq},"taken_at":"${takenAt}",` +
      `"cpu":${cpu},"active_peers":${node.usage.length},"peers":[${peers}]}]}`;
    const at = performance.now();
    try {
      const answer = await call(this.target, 'POST', REPORT, node.headers, body, REPORT_TIMEOUT_MS);
      // At or past its own number: a later report of the node may have been counted first.
      const acked = Number(ACKED.exec(answer.body)?.[1] ?? 0);
      const ok = answer.status === 200 && acked >= seq;
      this.reports.push({ at, ms: answer.ms, ok, status: answer.status });
      if (!ok)
        this.fault(
          `report of server ${node.seeded.serverId}: ${answer.status} ${answer.body.slice(0, 120)}`,
        );
    } catch (error) {
      this.reports.push({ at, ms: performance.now() - at, ok: false, status: 0 });
      if (!this.stopped) this.fault(`report of server ${node.seeded.serverId}: ${String(error)}`);
    }
  }

  private fault(message: string): void {
    this.faultCount += 1;
    if (this.faults.length < MAX_FAULTS_KEPT) this.faults.push(message);
  }
}
