import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { type UsageReport, usageReport } from '#shared/contracts/vpn-node.ts';
import { MAX_PEERS_PER_REPORT, MAX_REPORTS_PER_CALL } from '#shared/vpn/fleet-rules.ts';
import { type StateDir, syncFolder, writeFileAtomic } from './state-dir.ts';
import type { Counters } from './usage-counter.ts';

// Usage reports wait on disk, one file a report (`reports/<seq>.json`), until the API has
// acknowledged them, so a node cut off for hours keeps all of it in order and its memory
// holds only their numbers. The commit point of a report is `state.json`: its files are
// written first, then the next number and the counters they were measured against in one
// atomic write. A crash in between leaves files past the committed number, which `open`
// deletes; the next measurement counts the same bytes again under the same numbers. So a
// report is sent only once committed, and its bytes are never in two committed reports.

/** The API takes 1 MB a call; half leaves room for JSON we did not count (and proxies). */
export const MAX_BATCH_BYTES = 512 * 1024;

/**
 * Peers in one report: a peer's entry is at most ~160 bytes, so one report always fits in a
 * batch's bytes, however busy the interface.
 */
export const PEERS_PER_REPORT = MAX_PEERS_PER_REPORT;

/** A report before it is numbered. */
export type ReportDraft = Omit<UsageReport, 'seq'>;

const REPORT_FILE = /^(\d+)\.json$/;

export class ReportQueue {
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly state: StateDir,
    private readonly folder: string,
    /** Numbers of the committed reports not yet acknowledged, oldest first. */
    private pending: number[],
  ) {}

  static async open(state: StateDir): Promise<ReportQueue> {
    const folder = join(state.dir, 'reports');
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const pending: number[] = [];
    for (const name of await readdir(folder)) {
      const seq = Number(REPORT_FILE.exec(name)?.[1] ?? Number.NaN);
      if (seq < state.nextSeq) pending.push(seq);
      // A temporary file, or a report whose commit did not happen before a crash.
      else await unlink(join(folder, name));
    }
    await syncFolder(folder);
    return new ReportQueue(
      state,
      folder,
      pending.sort((a, b) => a - b),
    );
  }

  /** Reports waiting for an acknowledgement. */
  get size(): number {
    return this.pending.length;
  }

  /**
   * Numbers the drafts and commits them with the counters they were measured against. A
   * draft the API would refuse fails here, loudly, rather than blocking the queue later.
   */
  append(drafts: readonly ReportDraft[], counters: Counters): Promise<void> {
    return this.serial(async () => {
      let seq = this.state.nextSeq;
      const written: number[] = [];
      for (const draft of drafts) {
        const report = usageReport.parse({ seq, ...draft });
        await writeFileAtomic(this.fileOf(seq), JSON.stringify(report));
        written.push(seq);
        seq += 1;
      }
      await this.state.save(seq, counters);
      this.pending.push(...written);
    });
  }

  /** Replaces the counters without a report: a starting point, or peers that were removed. */
  setCounters(counters: Counters): Promise<void> {
    return this.serial(() => this.state.save(this.state.nextSeq, counters));
  }

  /**
   * The oldest waiting reports, as many as one call may carry: at most MAX_REPORTS_PER_CALL
   * and MAX_BATCH_BYTES, and always the oldest one.
   */
  async nextBatch(): Promise<UsageReport[]> {
    const batch: UsageReport[] = [];
    let bytes = 0;
    for (const seq of this.pending.slice(0, MAX_REPORTS_PER_CALL)) {
      const text = await readFile(this.fileOf(seq), 'utf8');
      bytes += Buffer.byteLength(text) + 1;
      if (batch.length > 0 && bytes > MAX_BATCH_BYTES) break;
      batch.push(usageReport.parse(JSON.parse(text)));
    }
    return batch;
  }

  /**
   * Forgets the reports the API has counted, and answers how many that was. An API that has
   * counted past our numbering (this folder restored from an old copy) would ignore every
   * report below its number: numbering continues after it.
   */
  acknowledge(ackedSeq: number): Promise<number> {
    return this.serial(async () => {
      const counted = this.pending.filter((seq) => seq <= ackedSeq);
      for (const seq of counted) await unlink(this.fileOf(seq)).catch(ignoreMissing);
      if (counted.length > 0) await syncFolder(this.folder);
      this.pending = this.pending.filter((seq) => seq > ackedSeq);
      if (ackedSeq >= this.state.nextSeq) await this.state.save(ackedSeq + 1, this.state.counters);
      return counted.length;
    });
  }

  private fileOf(seq: number): string {
    return join(this.folder, `${String(seq).padStart(16, '0')}.json`);
  }

  /** State writes one after another: each one's number and counters follow the last. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work);
    this.tail = run.catch(() => undefined);
    return run;
  }
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}
