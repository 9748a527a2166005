import { availableParallelism, loadavg } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { EnrollResponse, NodePeer, PeersResponse } from '#shared/contracts/vpn-node.ts';
import { type NodeApiClient, NodeApiError } from './api-client.ts';
import { Backoff, type BackoffOptions } from './backoff.ts';
import type { Logger } from './log.ts';
import { peerChanges, usablePeers } from './peer-sync.ts';
import { PEERS_PER_REPORT, type ReportDraft, type ReportQueue } from './report-queue.ts';
import type { StateDir } from './state-dir.ts';
import { measureUsage } from './usage-counter.ts';
import type { Dump, WireGuard } from './wg-cli.ts';

// The node agent (DESIGN "VPN provisioning"): enrolls its public key, then runs three loops
// until stopped or retired. The peers loop long-polls the API and makes the interface's peers
// equal to its set; the measuring loop reads the interface's counters every report interval
// into a numbered report on disk (and puts back what a restart of the interface lost); the
// sending loop delivers waiting reports oldest first and forgets them once acknowledged.
// Everything that reads the interface and then changes it or the counters runs one at a time.

export interface AgentTimings {
  /** Replaces the API's report interval (tests); otherwise the API's, at least 1 s. */
  reportIntervalMs?: number;
  /** After no answer, a 5xx or a failed `wg`. */
  backoff: BackoffOptions;
  /** Between tries while the API refuses the token (401) or a request (4xx). */
  refusedRetryMs: number;
  /** How long a retired node goes on sending its last reports before it stops. */
  retireDrainMs: number;
}

const DEFAULT_TIMINGS: AgentTimings = {
  backoff: { firstMs: 1_000, maxMs: 30_000 },
  refusedRetryMs: 60_000,
  retireDrainMs: 30_000,
};

/** How a run ended: stopped by a signal, the server removed by staff, or another machine's key. */
export type AgentOutcome = 'stopped' | 'retired' | 'key-mismatch';

export interface AgentDeps {
  api: NodeApiClient;
  wireGuard: WireGuard;
  state: StateDir;
  queue: ReportQueue;
  log: Logger;
  agentVersion: string;
  timings?: Partial<AgentTimings>;
}

/** The host's 1-minute load over its CPUs, as the 0–100 % the API takes. */
function cpuLoad(): number {
  const [oneMinute = 0] = loadavg();
  const percent = (oneMinute / availableParallelism()) * 100;
  return Math.min(100, Math.max(0, Math.round(percent * 10) / 10));
}

/** A wake-up that is not lost when it comes before the wait. */
class Wakeup {
  private pending = false;
  private readonly waiters = new Set<() => void>();

  notify(): void {
    this.pending = true;
    for (const wake of this.waiters) wake();
  }

  async wait(signal: AbortSignal): Promise<void> {
    if (!this.pending && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.waiters.delete(done);
          signal.removeEventListener('abort', done);
          resolve();
        };
        this.waiters.add(done);
        signal.addEventListener('abort', done);
      });
    }
    this.pending = false;
  }
}

export class Agent {
  private readonly api: NodeApiClient;
  private readonly wireGuard: WireGuard;
  private readonly state: StateDir;
  private readonly queue: ReportQueue;
  private readonly log: Logger;
  private readonly timings: AgentTimings;
  /** Every loop ends. */
  private readonly halted = new AbortController();
  /** Measuring ends (also when retired, while the last reports still go out). */
  private readonly measuring = new AbortController();
  private readonly reportsWaiting = new Wakeup();
  private readonly queueEmptied = new Wakeup();
  private tail: Promise<unknown> = Promise.resolve();
  /** The API's peers as last received, once received: what the interface must hold. */
  private desired: NodePeer[] | null = null;
  private listenPort: number | null = null;

  constructor(private readonly deps: AgentDeps) {
    this.api = deps.api;
    this.wireGuard = deps.wireGuard;
    this.state = deps.state;
    this.queue = deps.queue;
    this.log = deps.log;
    this.timings = { ...DEFAULT_TIMINGS, ...deps.timings };
  }

  /** Ends the loops; `run` then takes a last measurement and resolves. */
  stop(): void {
    this.measuring.abort();
    this.halted.abort();
  }

  async run(): Promise<AgentOutcome> {
    await this.restoreLastPeers();
    const enrolled = await this.enroll();
    if (enrolled === 'stopped' || enrolled === 'key-mismatch') return enrolled;
    const sending = this.sendLoop();
    const outcome = enrolled === 'retired' ? 'retired' : await this.serve(enrolled);
    if (outcome === 'retired') await this.retire();
    this.stop();
    await sending;
    this.log.info('stopped', { outcome, reports_waiting: this.queue.size });
    return outcome;
  }

  private async enroll(): Promise<EnrollResponse | AgentOutcome> {
    const request = { public_key: this.state.publicKey, agent_version: this.deps.agentVersion };
    const backoff = new Backoff(this.timings.backoff);
    while (!this.halted.signal.aborted) {
      try {
        const settings = await this.api.enroll(request, this.halted.signal);
        this.log.info('enrolled', {
          server_id: settings.server_id,
          name: settings.name,
          public_key: this.state.publicKey,
          listen_port: settings.listen_port,
          interface_addresses: settings.interface_addresses,
        });
        return settings;
      } catch (error) {
        const failure = error instanceof NodeApiError ? error.failure : undefined;
        if (failure === 'key-mismatch') {
          this.log.error(
            "the API holds another key for this server (node.key_mismatch): if this machine replaces the one that enrolled, rotate the server's token in the admin, put the new token in VPN_NODE_TOKEN, then restart the agent",
            { public_key: this.state.publicKey },
          );
          return 'key-mismatch';
        }
        // Enrolling a retired server is forbidden; its peers answer still says so.
        if (failure === 'forbidden' && (await this.isRetired())) return 'retired';
        await this.pause(error, backoff, 'enroll');
      }
    }
    return 'stopped';
  }

  /**
   * A host that rebooted has an empty interface, and its peers come from the API, which may
   * be out of reach just then: the last set it gave is put back first, so customers connect
   * while the agent keeps trying to enroll. The API's own answer replaces it once it comes.
   */
  private async restoreLastPeers(): Promise<void> {
    const last = await this.state.lastPeers();
    // A folder that never measured has nothing of its own to put back.
    if (!last || this.state.counters === null) return;
    this.listenPort = last.listenPort;
    this.desired = usablePeers(last.peers).usable;
    await this.exclusive(async () => {
      const dump = await this.wireGuard.dump();
      await this.restoreKeyAndPort(dump);
      const changes = await this.converge(dump, { reportRemoved: true });
      if (changes > 0) this.log.info('last known peers put back', { changes });
    }).catch((error: unknown) => this.log.error('could not put the last peers back', { error }));
  }

  private async isRetired(): Promise<boolean> {
    try {
      return (await this.api.peers(undefined, 0, this.halted.signal)).retired;
    } catch {
      return false;
    }
  }

  /** Keeps the interface as the API wants it and reports its usage, until stopped or retired. */
  private async serve(settings: EnrollResponse): Promise<'stopped' | 'retired'> {
    this.listenPort = settings.listen_port;
    const ready = await this.retrying('prepare the interface', () =>
      this.exclusive(async () => {
        const dump = await this.wireGuard.dump();
        // A folder that never measured takes the counters as its start, before peers come.
        if (this.state.counters === null) await this.report(dump);
        await this.restoreKeyAndPort(dump);
      }),
    );
    if (!ready) return 'stopped';
    const intervalMs =
      this.timings.reportIntervalMs ?? Math.max(1_000, settings.report_interval_ms);
    const measuring = this.measureLoop(intervalMs);
    const outcome = await this.peersLoop(settings.poll_wait_ms);
    this.measuring.abort();
    await measuring;
    if (outcome === 'stopped') {
      // Counters die with the interface (a reboot): what moved since the last report is
      // kept now, to be sent after the next start.
      await this.exclusive(async () => this.report(await this.wireGuard.dump())).catch(
        (error: unknown) => this.log.error('last measurement failed', { error }),
      );
    }
    return outcome;
  }

  private async peersLoop(waitMs: number): Promise<'stopped' | 'retired'> {
    const calls = new Backoff(this.timings.backoff);
    const applies = new Backoff(this.timings.backoff);
    // None at first: the whole set, at once, so every start is a full resync.
    let version: number | undefined;
    while (!this.halted.signal.aborted) {
      let answer: PeersResponse;
      try {
        answer = await this.api.peers(version, waitMs, this.halted.signal);
      } catch (error) {
        await this.pause(error, calls, 'peers');
        continue;
      }
      this.recovered(calls, 'peers');
      if (answer.retired) return 'retired';
      if (!answer.changed) continue;
      try {
        await this.applyPeers(answer.peers);
        version = answer.version;
        applies.reset();
      } catch (error) {
        this.log.error('could not apply the peers; asking for the whole set again', { error });
        version = undefined;
        await this.sleep(applies.next(), this.halted.signal);
      }
    }
    return 'stopped';
  }

  private applyPeers(peers: readonly NodePeer[]): Promise<void> {
    const { usable, refused } = usablePeers(peers);
    if (refused.length > 0) {
      this.log.error('the API listed peers wg cannot take; they are left out', {
        public_keys: refused.map((peer) => peer.public_key),
      });
    }
    return this.exclusive(async () => {
      this.desired = usable;
      const dump = await this.wireGuard.dump();
      const changed = await this.converge(dump, { reportRemoved: true });
      if (changed > 0) this.log.info('peers applied', { peers: usable.length, changes: changed });
      if (this.listenPort !== null) {
        await this.state.saveLastPeers({ listenPort: this.listenPort, peers: usable });
      }
    });
  }

  /**
   * Makes the interface's peers the desired set; answers how many peers changed. A removed
   * peer's counters go with it, so the bytes it moved since the last report are measured
   * first (unless `dump` was just measured), and the counters it had are forgotten after, so
   * the same key added back later counts from zero.
   */
  private async converge(dump: Dump, options: { reportRemoved: boolean }): Promise<number> {
    if (!this.desired) return 0;
    const changes = peerChanges(this.desired, dump.peers);
    if (changes.length === 0) return 0;
    const removed = changes.flatMap((change) => ('remove' in change ? [change.publicKey] : []));
    if (removed.length > 0 && options.reportRemoved) await this.report(dump);
    await this.wireGuard.setPeers(changes);
    const counters = this.state.counters;
    if (removed.length > 0 && counters) {
      const kept = new Map(counters);
      for (const key of removed) kept.delete(key);
      await this.queue.setCounters(kept);
    }
    return changes.length;
  }

  /** Sets the node's key and port when the interface lost them (made anew, or restarted). */
  private async restoreKeyAndPort(dump: Dump): Promise<void> {
    if (this.listenPort === null) return;
    if (dump.publicKey === this.state.publicKey && dump.listenPort === this.listenPort) return;
    this.log.info('setting the interface key and port', {
      public_key: this.state.publicKey,
      listen_port: this.listenPort,
      had_key: dump.publicKey !== null,
    });
    await this.wireGuard.setKeyAndPort(this.state.privateKeyPath, this.listenPort);
  }

  private async measureLoop(intervalMs: number): Promise<void> {
    const { signal } = this.measuring;
    let next = Date.now() + intervalMs;
    while (!signal.aborted) {
      await this.sleep(next - Date.now(), signal);
      if (signal.aborted) break;
      await this.exclusive(async () => {
        const dump = await this.wireGuard.dump();
        await this.report(dump);
        await this.restoreKeyAndPort(dump);
        const changes = await this.converge(dump, { reportRemoved: false });
        if (changes > 0)
          this.log.warn('the interface had other peers than the API; put right', { changes });
      }).catch((error: unknown) => this.log.error('could not measure the interface', { error }));
      // A late measurement is not followed by a rush of others.
      next = Math.max(next + intervalMs, Date.now());
    }
  }

  /**
   * Commits a report of the traffic since the last one (in pieces of PEERS_PER_REPORT
   * peers), or, when this folder never measured, takes the counters as the starting point.
   */
  private async report(dump: Dump): Promise<void> {
    const now = Date.now();
    const last = this.state.counters;
    const usage = measureUsage(last ?? new Map(), dump.peers, now);
    if (last === null) {
      await this.queue.setCounters(usage.counters);
      return;
    }
    const pieces: ReportDraft['peers'][] = [];
    for (let at = 0; at < usage.peers.length; at += PEERS_PER_REPORT) {
      pieces.push(usage.peers.slice(at, at + PEERS_PER_REPORT));
    }
    const host = { taken_at: new Date(now).toISOString(), cpu: cpuLoad() };
    const drafts = (pieces.length > 0 ? pieces : [[]]).map(
      (peers): ReportDraft => ({ ...host, active_peers: usage.activePeers, peers }),
    );
    await this.queue.append(drafts, usage.counters);
    this.reportsWaiting.notify();
  }

  private async sendLoop(): Promise<void> {
    const backoff = new Backoff(this.timings.backoff);
    const { signal } = this.halted;
    while (!signal.aborted) {
      try {
        const reports = await this.queue.nextBatch();
        const first = reports[0];
        if (!first) {
          this.queueEmptied.notify();
          await this.reportsWaiting.wait(signal);
          continue;
        }
        const { acked_seq } = await this.api.report({ stream: this.state.stream, reports }, signal);
        // Acknowledging less than was sent would resend the same batch without end.
        if ((await this.queue.acknowledge(acked_seq)) === 0) {
          throw new Error(
            `the API acknowledged ${acked_seq}, below the reports sent from ${first.seq}`,
          );
        }
        this.recovered(backoff, 'report');
        this.log.debug('reports sent', { acked_seq, waiting: this.queue.size });
      } catch (error) {
        await this.pause(error, backoff, 'report');
      }
    }
  }

  /** Takes every peer off the interface, then sends the last reports for a while. */
  private async retire(): Promise<void> {
    this.log.warn('the API says this server was removed: taking every peer off the interface');
    await this.applyPeers([]).catch((error: unknown) =>
      this.log.error('could not take the peers off the interface', { error }),
    );
    const deadline = AbortSignal.any([
      this.halted.signal,
      AbortSignal.timeout(this.timings.retireDrainMs),
    ]);
    while (this.queue.size > 0 && !deadline.aborted) await this.queueEmptied.wait(deadline);
  }

  /** Waits after a failed call as the failure asks: backoff, the API's Retry-After, or slowly. */
  private async pause(error: unknown, backoff: Backoff, call: string): Promise<void> {
    if (this.halted.signal.aborted) return;
    const failure = error instanceof NodeApiError ? error.failure : undefined;
    let waitMs: number;
    if (failure === 'unauthorized') {
      this.log.error(
        `${call}: the API refused the token (401): it was rotated or removed in the admin; put the server's current token in VPN_NODE_TOKEN and restart the agent`,
        { error },
      );
      waitMs = this.timings.refusedRetryMs;
    } else if (failure === 'rate-limited' && error instanceof NodeApiError) {
      waitMs = error.retryAfterMs ?? backoff.next();
      this.log.warn(`${call}: rate limited by the API`, { retry_in_ms: waitMs });
    } else if (failure === 'forbidden' || failure === 'rejected' || failure === 'key-mismatch') {
      this.log.error(`${call}: the API refused the request`, { error });
      waitMs = this.timings.refusedRetryMs;
    } else {
      waitMs = backoff.next();
      this.log.warn(`${call}: failed; trying again`, { error, retry_in_ms: Math.round(waitMs) });
    }
    await this.sleep(waitMs, this.halted.signal);
  }

  private recovered(backoff: Backoff, call: string): void {
    if (backoff.failing) this.log.info(`${call}: the API answers again`);
    backoff.reset();
  }

  /** Runs `work` until it succeeds (true) or the agent stops (false). */
  private async retrying(what: string, work: () => Promise<void>): Promise<boolean> {
    const backoff = new Backoff(this.timings.backoff);
    while (!this.halted.signal.aborted) {
      try {
        await work();
        return true;
      } catch (error) {
        const waitMs = backoff.next();
        this.log.error(`could not ${what}; is the interface up?`, { error, retry_in_ms: waitMs });
        await this.sleep(waitMs, this.halted.signal);
      }
    }
    return false;
  }

  private async sleep(ms: number, signal: AbortSignal): Promise<void> {
    await delay(Math.max(0, ms), undefined, { signal }).catch(() => undefined);
  }

  /** One reader-and-writer of the interface and the counters at a time. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work);
    this.tail = run.catch(() => undefined);
    return run;
  }
}
