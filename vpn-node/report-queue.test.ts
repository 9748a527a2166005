import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_REPORTS_PER_CALL } from '#shared/vpn/fleet-rules.ts';
import {
  MAX_BATCH_BYTES,
  PEERS_PER_REPORT,
  type ReportDraft,
  ReportQueue,
} from './report-queue.ts';
import { newPrivateKey, publicKeyOf, StateDir } from './state-dir.ts';
import type { Counters } from './usage-counter.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vpn-node-queue-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const KEY = publicKeyOf(newPrivateKey());
const draft = (peers = 0, rx = 1): ReportDraft => ({
  taken_at: '2026-11-21T10:00:00.000Z',
  cpu: 12.5,
  active_peers: peers,
  peers: Array.from({ length: peers }, () => ({
    public_key: KEY,
    rx,
    tx: Number.MAX_SAFE_INTEGER,
    latest_handshake_at: '2026-11-21T09:59:58.000Z',
  })),
});
const counters = (rx: number): Counters => new Map([[KEY, { rx, tx: 0, handshake: 0 }]]);

async function openQueue() {
  const state = await StateDir.open(dir);
  return { state, queue: await ReportQueue.open(state) };
}

describe('ReportQueue', () => {
  it('numbers reports and commits them with their counters, across restarts', async () => {
    const { state, queue } = await openQueue();
    await queue.append([draft(), draft()], counters(5));
    await queue.append([draft()], counters(9));
    expect(state.nextSeq).toBe(4);
    expect(state.counters).toEqual(counters(9));

    const again = await openQueue();
    expect(again.queue.size).toBe(3);
    expect(again.state.counters).toEqual(counters(9));
    expect((await again.queue.nextBatch()).map((report) => report.seq)).toEqual([1, 2, 3]);
  });

  it('drops what a crash left before the commit: a report past the number, a temporary file', async () => {
    const { state, queue } = await openQueue();
    await queue.append([draft()], counters(5));
    // Written, then the power went before state.json said 2 was taken.
    const reports = join(dir, 'reports');
    await writeFile(join(reports, '0000000000000002.json'), JSON.stringify({ seq: 2, ...draft() }));
    await writeFile(join(reports, '0000000000000003.json.tmp'), '{"seq":3,');

    const again = await openQueue();
    expect(await readdir(reports)).toEqual(['0000000000000001.json']);
    expect(again.queue.size).toBe(1);
    // Its bytes are measured again against the committed counters, under the same number.
    await again.queue.append([draft()], counters(7));
    expect((await again.queue.nextBatch()).map((report) => report.seq)).toEqual([1, 2]);
    expect(state.stream).toBe(again.state.stream);
  });

  it('refuses a report the API would refuse, and commits nothing', async () => {
    const { state, queue } = await openQueue();
    await expect(queue.append([{ ...draft(), cpu: 130 }], counters(5))).rejects.toThrow();
    expect(state.nextSeq).toBe(1);
    expect(state.counters).toBeNull();
    expect(queue.size).toBe(0);
  });

  it('batches the oldest reports, at most one call of them', async () => {
    const { queue } = await openQueue();
    for (let i = 0; i < MAX_REPORTS_PER_CALL + 5; i += 1)
      await queue.append([draft(1)], counters(i));
    const batch = await queue.nextBatch();
    expect(batch.map((report) => report.seq)).toEqual(
      Array.from({ length: MAX_REPORTS_PER_CALL }, (_, i) => i + 1),
    );
  });

  it('keeps a batch under MAX_BATCH_BYTES, and a full report always fits', async () => {
    const { queue } = await openQueue();
    const full = draft(PEERS_PER_REPORT, Number.MAX_SAFE_INTEGER);
    await queue.append([full, full], counters(1));
    const batch = await queue.nextBatch();
    expect(batch.map((report) => report.seq)).toEqual([1]);
    expect(JSON.stringify({ stream: 'x', reports: batch }).length).toBeLessThan(MAX_BATCH_BYTES);
  });

  it('forgets acknowledged reports, on disk too', async () => {
    const { queue } = await openQueue();
    for (let i = 0; i < 5; i += 1) await queue.append([draft()], counters(i));
    expect(await queue.acknowledge(3)).toBe(3);
    expect(await queue.acknowledge(3)).toBe(0);
    expect(queue.size).toBe(2);
    expect(await readdir(join(dir, 'reports'))).toEqual([
      '0000000000000004.json',
      '0000000000000005.json',
    ]);
    expect((await (await openQueue()).queue.nextBatch()).map((report) => report.seq)).toEqual([
      4, 5,
    ]);
  });

  it('numbers on past an acknowledgement beyond its own numbers (a folder restored from a copy)', async () => {
    const { state, queue } = await openQueue();
    await queue.append([draft()], counters(1));
    await queue.acknowledge(40);
    expect(queue.size).toBe(0);
    expect(state.nextSeq).toBe(41);
    expect(state.counters).toEqual(counters(1));
    await queue.append([draft()], counters(2));
    expect((await queue.nextBatch()).map((report) => report.seq)).toEqual([41]);
  });
});
