import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '#server/test/wait-until.ts';
import { Agent, type AgentOutcome, type AgentTimings } from './agent.ts';
import { NodeApiClient } from './api-client.ts';
import { createLogger } from './log.ts';
import { ReportQueue } from './report-queue.ts';
import { newPrivateKey, publicKeyOf, StateDir } from './state-dir.ts';
import { FakeWireGuard } from './test/fake-wireguard.ts';
import { NodeApiStandin, STANDIN_TOKEN } from './test/node-api-standin.ts';

// The agent against a stand-in of the node API on a loopback port and an interface in
// memory, with every interval in milliseconds instead of seconds.

const TIMINGS: Partial<AgentTimings> = {
  reportIntervalMs: 25,
  backoff: { firstMs: 10, maxMs: 60 },
  refusedRetryMs: 50,
  retireDrainMs: 3_000,
};

const key = () => publicKeyOf(newPrivateKey());
const [A, B, C, STRAY] = [key(), key(), key(), key()];
const peer = (publicKey: string, host: number) => ({
  public_key: publicKey,
  allowed_ips: [`10.8.0.${host}/32`, `fd00:8::${host}/128`],
});

interface LogLine {
  level: string;
  msg: string;
}

interface RunningAgent {
  agent: Agent;
  state: StateDir;
  queue: ReportQueue;
  done: Promise<AgentOutcome>;
  outcome: () => AgentOutcome | undefined;
  lines: LogLine[];
}

let dir: string;
let api: NodeApiStandin;
let wg: FakeWireGuard;
const running: RunningAgent[] = [];

async function startAgent(timings: Partial<AgentTimings> = {}): Promise<RunningAgent> {
  const state = await StateDir.open(dir);
  const queue = await ReportQueue.open(state);
  const lines: LogLine[] = [];
  const agent = new Agent({
    api: new NodeApiClient({ baseUrl: api.url, token: STANDIN_TOKEN, timeoutMs: 2_000 }),
    wireGuard: wg,
    state,
    queue,
    log: createLogger('debug', (line) => lines.push(JSON.parse(line) as LogLine)),
    agentVersion: 'test',
    timings: { ...TIMINGS, ...timings },
  });
  let outcome: AgentOutcome | undefined;
  const done = agent.run().then((result) => {
    outcome = result;
    return result;
  });
  const handle = { agent, state, queue, done, outcome: () => outcome, lines };
  running.push(handle);
  return handle;
}

async function stopAgent(handle: RunningAgent): Promise<AgentOutcome> {
  handle.agent.stop();
  return handle.done;
}

const peersOf = (fake: FakeWireGuard) =>
  Object.fromEntries([...fake.peers].map(([k, p]) => [k, p.allowedIps]));

const sameTotals = (a: { rx: number; tx: number }, b: { rx: number; tx: number }) =>
  a.rx === b.rx && a.tx === b.tx;

// Each report is committed with four fsyncs (~25 ms on ext4 here); these tests take hundreds,
// and what a power cut leaves is report-queue.test.ts's business: tmpfs when there is one.
const SCRATCH = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

beforeEach(async () => {
  dir = await mkdtemp(join(SCRATCH, 'vpn-node-agent-'));
  api = new NodeApiStandin();
  await api.start();
  wg = new FakeWireGuard();
});

afterEach(async () => {
  for (const handle of running.splice(0)) await stopAgent(handle);
  await api.stop();
  await rm(dir, { recursive: true, force: true });
  expect(api.refused).toEqual([]);
});

describe('vpn-node agent', () => {
  it('enrolls, sets key and port, and resyncs: a stray peer goes, the API peers come', async () => {
    wg.addPeer(STRAY, ['10.8.0.99/32'], { rx: 5_000, tx: 7_000 });
    wg.addPeer(A, ['10.8.0.50/32']);
    api.setPeers([peer(A, 2), peer(B, 3)]);
    const { state } = await startAgent();

    await until(() => wg.peers.size === 2 && !wg.peers.has(STRAY), 'the resync');
    expect(api.enrolledKey).toBe(state.publicKey);
    expect(wg.publicKey).toBe(state.publicKey);
    expect(wg.listenPort).toBe(51820);
    expect(peersOf(wg)).toEqual({
      [A]: ['10.8.0.2/32', 'fd00:8::2/128'],
      [B]: ['10.8.0.3/32', 'fd00:8::3/128'],
    });
    // One `wg set` for the whole resync: the removal and both additions together.
    expect(wg.sets).toHaveLength(1);
    // A new state folder takes what the interface counted before it as its start.
    await until(() => api.counted.length > 0, 'a report');
    expect(api.totals()).toEqual({ rx: 0, tx: 0 });
  });

  it('applies a version change within a second of the long poll answering', async () => {
    api.setPeers([peer(A, 2)]);
    await startAgent();
    await until(() => wg.peers.has(A), 'the first set');
    // Let the agent sit in a long poll on the current version.
    await until(() => api.peerAnswers.length === 1 && wg.sets.length === 1, 'a waiting poll');

    api.setPeers([peer(A, 2), peer(C, 4)]);
    await until(() => wg.peers.has(C), 'the change');
    const answered = api.peerAnswers.find((answer) => answer.version === api.version);
    const applied = wg.sets.find((set) => set.changes.some((change) => change.publicKey === C));
    expect(answered).toBeDefined();
    expect(applied).toBeDefined();
    expect((applied?.at ?? Infinity) - (answered?.at ?? 0)).toBeLessThan(1_000);
    expect([...wg.peers.keys()].sort()).toEqual([A, C].sort());
  });

  it('reports deltas; a counter that went down starts a new run', async () => {
    api.setPeers([peer(A, 2), peer(B, 3)]);
    await startAgent();
    await until(() => wg.peers.size === 2, 'the peers');

    wg.traffic(A, 1_000, 2_000);
    await until(() => sameTotals(api.totals(A), { rx: 1_000, tx: 2_000 }), 'the first bytes');
    wg.traffic(A, 500, 0);
    wg.traffic(B, 0, 30);
    await until(() => sameTotals(api.totals(A), { rx: 1_500, tx: 2_000 }), 'the next bytes');
    // The peer was added back: its counters (1500/2000) start over below what was seen.
    wg.resetCounters(A);
    wg.traffic(A, 300, 40);
    await until(() => sameTotals(api.totals(A), { rx: 1_800, tx: 2_040 }), 'the new run');

    const ofA = api.counted.flatMap((report) =>
      report.peers.filter((p) => p.public_key === A).map((p) => [p.rx, p.tx]),
    );
    expect(ofA).toEqual([
      [1_000, 2_000],
      [500, 0],
      [300, 40],
    ]);
    expect(api.totals(B)).toEqual({ rx: 0, tx: 30 });
    const withA = api.counted.find((report) => report.peers.some((p) => p.public_key === A));
    expect(withA?.active_peers).toBeGreaterThanOrEqual(1);
    expect(withA?.peers[0]?.latest_handshake_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    // Quiet peers are left out of a report.
    const seen = api.counted.length;
    await until(() => api.counted.length > seen, 'a quiet report');
    expect(api.counted.at(-1)?.peers).toEqual([]);
  });

  it('keeps reports through an outage and delivers every byte once, in order', async () => {
    api.setPeers([peer(A, 2), peer(B, 3)]);
    const handle = await startAgent({ reportIntervalMs: 2 });
    await until(() => wg.peers.size === 2 && api.counted.length > 0, 'a first report');
    let flowing = true;
    let turn = 0;
    wg.beforeDump = () => {
      if (!flowing) return;
      turn += 1;
      wg.traffic(turn % 2 === 0 ? A : B, 1_000 + turn, 10 * turn);
    };

    // First the API answers 503, then its port is closed: an hour's reports (360) pile up.
    api.mode = 'down';
    await until(() => handle.queue.size >= 180, '180 waiting reports', 30_000);
    await api.stop();
    await until(() => handle.queue.size >= 360, '360 waiting reports', 30_000);
    // It comes back, and the first batch's acknowledgement is lost: counted, then hung up.
    api.dropReportAnswers = 1;
    api.mode = 'up';
    await api.start();
    await until(() => api.duplicates > 0, 'the batch sent again', 20_000);
    flowing = false;
    await until(() => sameTotals(api.totals(), wg.moved), 'every byte', 20_000);

    // Sent again after the lost acknowledgement, the batch was taken by its numbers as
    // counted already (the API counts only past the last number of the stream): once.
    const seqs = api.counted.map((report) => report.seq);
    expect(seqs.length).toBeGreaterThan(360);
    expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] ?? 0) + i));
    expect(new Set(api.counted.map((report) => report.stream)).size).toBe(1);
    expect(Math.max(...api.reportCalls)).toBeLessThanOrEqual(30);
    expect(handle.lines.some((line) => line.msg === 'report: the API answers again')).toBe(true);
  }, 60_000);

  it('takes every peer off the interface when retired, sends the last bytes, and stops', async () => {
    api.setPeers([peer(A, 2), peer(B, 3)]);
    const handle = await startAgent();
    await until(() => wg.peers.size === 2, 'the peers');
    wg.traffic(A, 777, 888);
    api.retire();

    expect(await handle.done).toBe('retired');
    expect(wg.peers.size).toBe(0);
    expect(handle.queue.size).toBe(0);
    // The bytes moved since the last report were measured before the peer went.
    expect(api.totals(A)).toEqual({ rx: 777, tx: 888 });
  });

  it('continues the same stream and numbers after a restart with the same state folder', async () => {
    api.setPeers([peer(A, 2)]);
    const first = await startAgent();
    await until(() => wg.peers.has(A), 'the peer');
    wg.traffic(A, 100, 200);
    await until(() => sameTotals(api.totals(A), { rx: 100, tx: 200 }), 'the first bytes');
    // Moved after the last report: kept by the measurement taken on the way out.
    wg.traffic(A, 5, 6);
    expect(await stopAgent(first)).toBe('stopped');
    const stream = first.state.stream;
    const lastSent = api.counted.at(-1)?.seq ?? 0;

    const second = await startAgent();
    expect(second.state.stream).toBe(stream);
    expect(second.state.publicKey).toBe(first.state.publicKey);
    wg.traffic(A, 1, 2);
    await until(() => sameTotals(api.totals(A), { rx: 106, tx: 208 }), 'the bytes after restart');
    const seqs = api.counted.map((report) => report.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(seqs.length).toBeGreaterThan(lastSent);
    expect(new Set(api.counted.map((report) => report.stream))).toEqual(new Set([stream]));
  });

  it('puts back the key, port and peers of an interface that restarted', async () => {
    api.setPeers([peer(A, 2), peer(B, 3)]);
    const { state } = await startAgent();
    await until(() => wg.peers.size === 2, 'the peers');
    wg.restart();
    await until(() => wg.peers.size === 2 && wg.publicKey === state.publicKey, 'the repair');
    expect(wg.listenPort).toBe(51820);
  });

  it('after a reboot while the API is out of reach, puts the last peers back, then the API’s', async () => {
    api.setPeers([peer(A, 2), peer(B, 3)]);
    const first = await startAgent();
    await until(() => wg.peers.size === 2, 'the peers');
    wg.traffic(A, 10, 20);
    await until(() => sameTotals(api.totals(A), { rx: 10, tx: 20 }), 'the first bytes');
    await stopAgent(first);

    // The host reboots: an empty interface, and the API answers nothing but 503.
    wg.restart();
    api.mode = 'down';
    const second = await startAgent();
    await until(
      () => wg.peers.size === 2 && wg.publicKey === first.state.publicKey,
      'the last peers',
    );
    expect(wg.listenPort).toBe(51820);
    wg.traffic(B, 7, 8);

    // The API is back with a changed set: it wins, and no byte was lost meanwhile.
    api.setPeers([peer(B, 3), peer(C, 4)]);
    api.mode = 'up';
    await until(() => wg.peers.has(C) && !wg.peers.has(A), 'the API’s set');
    await until(() => sameTotals(api.totals(B), { rx: 7, tx: 8 }), 'the bytes moved meanwhile');
    expect(second.outcome()).toBeUndefined();
  });

  it('waits for an interface that is not there yet', async () => {
    wg.missing = true;
    api.setPeers([peer(A, 2)]);
    const handle = await startAgent();
    await until(
      () => handle.lines.some((line) => line.msg.startsWith('could not prepare')),
      'a try',
    );
    wg.missing = false;
    await until(() => wg.peers.has(A), 'the peers once it is up');
  });

  it('keeps trying slowly while the token is refused, and goes on once it is good', async () => {
    api.setPeers([peer(A, 2)]);
    api.token = 'rotated-token-0123456789';
    const handle = await startAgent();
    const refusals = () => handle.lines.filter((line) => line.msg.includes('refused the token'));
    await until(() => refusals().length >= 2, 'two refusals');
    expect(refusals()[0]?.level).toBe('error');
    expect(refusals()[0]?.msg).toContain('VPN_NODE_TOKEN');
    expect(handle.outcome()).toBeUndefined();
    api.token = STANDIN_TOKEN;
    await until(() => wg.peers.has(A), 'the peers after the fix');
  });

  it('stops with the remedy when the API holds another key for the server', async () => {
    api.lockedKey = key();
    const handle = await startAgent();
    expect(await handle.done).toBe('key-mismatch');
    const line = handle.lines.find((l) => l.msg.includes('node.key_mismatch'));
    expect(line?.level).toBe('error');
    expect(line?.msg).toContain("rotate the server's token in the admin");
    expect(line?.msg).toContain('restart');
  });
});
