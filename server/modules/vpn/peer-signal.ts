import type { Redis } from 'ioredis';

/**
 * Wakes the long polls of nodes whose peers changed (DESIGN "a change reaches the node in
 * about a second"). A change is written with the server's `peersVersion` grown, and once it
 * has committed, `notify` wakes that server's waiting polls here and, through Redis when it
 * is configured, in every other API process. A wake that goes missing costs at most one poll
 * period: the poll reads the version again when its wait ends.
 */
export class PeerSignal {
  private readonly waiters = new Map<number, Set<() => void>>();
  private remote: ((serverIds: readonly number[]) => void) | undefined;

  /** Sends every notify to the other processes too. */
  connect(remote: (serverIds: readonly number[]) => void): void {
    this.remote = remote;
  }

  notify(serverIds: Iterable<number>): void {
    const ids = [...new Set(serverIds)];
    if (ids.length === 0) return;
    this.wake(ids);
    this.remote?.(ids);
  }

  /** What another process notified. */
  wake(serverIds: Iterable<number>): void {
    for (const id of serverIds) {
      const set = this.waiters.get(id);
      if (!set) continue;
      this.waiters.delete(id);
      for (const wake of set) wake();
    }
  }

  /**
   * A wait for the server's next notify, armed now (before the caller reads the version, so
   * a change committed in between is not missed). `done` resolves true when woken, false
   * when `timeoutMs` passed or `cancel` was called.
   */
  arm(serverId: number, timeoutMs: number): { done: Promise<boolean>; cancel: () => void } {
    let settle: (woken: boolean) => void = () => {};
    const done = new Promise<boolean>((resolve) => {
      settle = resolve;
    });
    const wake = () => finish(true);
    let set = this.waiters.get(serverId);
    if (!set) {
      set = new Set();
      this.waiters.set(serverId, set);
    }
    set.add(wake);
    const timer = setTimeout(() => finish(false), timeoutMs);
    timer.unref();
    const finish = (woken: boolean) => {
      clearTimeout(timer);
      const current = this.waiters.get(serverId);
      current?.delete(wake);
      if (current?.size === 0) this.waiters.delete(serverId);
      settle(woken);
    };
    return { done, cancel: () => finish(false) };
  }

  /** Answers every waiting poll (the process is closing: they get the version they have). */
  releaseAll(): void {
    const sets = [...this.waiters.values()];
    this.waiters.clear();
    for (const set of sets) for (const wake of set) wake();
  }

  /** Polls waiting now, for tests and metrics. */
  get waiting(): number {
    let count = 0;
    for (const set of this.waiters.values()) count += set.size;
    return count;
  }
}

const CHANNEL = 'vpn:peers';

/**
 * Carries notifies between API processes over Redis pub/sub: `origin:id,id,…`, so a process
 * skips its own (it woke its polls already).
 */
export async function linkPeerSignal(
  signal: PeerSignal,
  commands: Redis,
  subscriber: Redis,
  origin: string,
  onError: (error: Error) => void,
): Promise<void> {
  subscriber.on('message', (channel: string, message: string) => {
    if (channel !== CHANNEL) return;
    const [from, list] = message.split(':');
    if (from === origin || !list) return;
    signal.wake(list.split(',').map(Number).filter(Number.isSafeInteger));
  });
  await subscriber.subscribe(CHANNEL);
  signal.connect((ids) => {
    commands.publish(CHANNEL, `${origin}:${ids.join(',')}`).catch(onError);
  });
}
