import { randomBytes } from 'node:crypto';
import { call, type HttpTarget } from './fleet-http.ts';
import type { ProbeDevice } from './fleet-seed.ts';

// Peer-change latency at load (DESIGN: a change reaches the node in about a second): every
// so often a customer gives one of their devices a new key through the customer API
// (rekey: the old key stops working in the same step, so it is a change of the node's
// peers), and we time how long after the API's answer that node's open long poll comes back
// with a set holding the new key. One change at a time per node, so each answer is matched.

const REKEY = '/api/account/v1/vpn/devices/rekey';
const REKEY_TIMEOUT_MS = 30_000;
/** Past one poll wait and a retry: a change not seen by then counts as missed. */
const SEEN_TIMEOUT_MS = 30_000;

export interface ChangeSample {
  /** When the rekey was sent (performance.now()). */
  at: number;
  /** The customer API's own answer time. */
  rekeyMs: number;
  /** From the API's answer to the node's poll answer; 0 when the node had it first. */
  fromAnswerMs: number;
  /** From the rekey's sending to the node's poll answer. */
  fromRequestMs: number;
}

interface Pending {
  key: string;
  sentAt: number;
  answeredAt?: number;
  rekeyMs?: number;
  seenAt?: number;
}

export class PeerChangeProbes {
  readonly samples: ChangeSample[] = [];
  /** The node's poll came back before the API's answer reached the customer. */
  seenBeforeAnswer = 0;
  /** Rekeys the API refused or that failed, and the first such answer. */
  failed = 0;
  firstFailure: string | undefined;
  /** Changes a node never saw within SEEN_TIMEOUT_MS. */
  missed = 0;
  /** A node's poll came back changed with no rekey of ours pending on it. */
  unexpected = 0;
  private readonly pending = new Map<number, Pending>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly target: HttpTarget,
    private readonly devices: ProbeDevice[],
    private readonly isPolling: (serverId: number) => boolean,
  ) {}

  start(everyMs: number): void {
    this.timer = setInterval(() => this.probe(), everyMs);
  }

  /** Stops new changes and waits (boundedly) for the ones under way to reach their nodes. */
  async stop(waitMs = SEEN_TIMEOUT_MS): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    const deadline = performance.now() + waitMs;
    while (this.pending.size > 0 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    this.missed += this.pending.size;
    this.pending.clear();
  }

  /** What the fleet calls when a node's poll answers with a new set. */
  seen(serverId: number, body: string, at: number): void {
    const change = this.pending.get(serverId);
    if (!change) {
      this.unexpected += 1;
      return;
    }
    if (!body.includes(change.key)) return;
    change.seenAt = at;
    this.settle(serverId, change);
  }

  private probe(): void {
    if (this.stopped) return;
    const now = performance.now();
    // Changes that were never seen: give up on them so their node can be probed again.
    for (const [serverId, change] of this.pending) {
      if (now - change.sentAt > SEEN_TIMEOUT_MS) {
        this.missed += 1;
        this.pending.delete(serverId);
      }
    }
    const free = this.devices.filter(
      (device) => !this.pending.has(device.serverId) && this.isPolling(device.serverId),
    );
    const device = free[Math.floor(Math.random() * free.length)];
    if (!device) return;
    // Any 32 random bytes are a valid-looking WireGuard public key.
    const change: Pending = { key: randomBytes(32).toString('base64'), sentAt: now };
    this.pending.set(device.serverId, change);
    const body = JSON.stringify({ device_id: device.deviceId, public_key: change.key });
    const headers = { cookie: device.cookie, 'x-requested-with': 'fetch' };
    call(this.target, 'POST', REKEY, headers, body, REKEY_TIMEOUT_MS).then(
      (answer) => {
        if (answer.status !== 200) {
          this.fail(device.serverId, `${answer.status} ${answer.body.slice(0, 160)}`);
          return;
        }
        change.answeredAt = performance.now();
        change.rekeyMs = answer.ms;
        this.settle(device.serverId, change);
      },
      (error: unknown) => this.fail(device.serverId, String(error)),
    );
  }

  private fail(serverId: number, why: string): void {
    this.failed += 1;
    this.firstFailure ??= why;
    this.pending.delete(serverId);
  }

  /** Records the change once both the API's answer and the node's poll are in. */
  private settle(serverId: number, change: Pending): void {
    const { answeredAt, seenAt, rekeyMs } = change;
    if (answeredAt === undefined || seenAt === undefined || rekeyMs === undefined) return;
    this.pending.delete(serverId);
    if (seenAt < answeredAt) this.seenBeforeAnswer += 1;
    this.samples.push({
      at: change.sentAt,
      rekeyMs,
      fromAnswerMs: Math.max(0, seenAt - answeredAt),
      fromRequestMs: seenAt - change.sentAt,
    });
  }
}
