import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, release } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Measurement } from './measure.ts';
import type { BenchOptions } from './options.ts';

const RESULTS_DIR = fileURLToPath(new URL('../../bench-results/', import.meta.url));

export interface ScenarioReport extends Measurement {
  /** The scenario the ratios are taken against. */
  baseline: string;
  /** Scenario over baseline: below 1 means fewer requests per second than the bare server. */
  rpsRatio: number | null;
  /** Scenario over baseline: above 1 means a slower tail than the bare server. */
  p99Ratio: number | null;
  /** Memory per 1,000 connections over the baseline's, for scenarios that measure it. */
  memoryRatio: number | null;
}

export interface BenchReport {
  startedAt: string;
  machine: { node: string; platform: string; cpus: number; cpuModel: string };
  options: BenchOptions;
  baselines: string[];
  scenarios: ScenarioReport[];
}

// A zero baseline (e.g. a p99 under the histogram's 1 ms resolution) has no meaningful ratio.
const ratio = (value: number, base: number) => (base > 0 ? value / base : null);

export function compare(baseline: Measurement, measured: Measurement[]): ScenarioReport[] {
  return [baseline, ...measured].map((m) => ({
    ...m,
    baseline: baseline.name,
    rpsRatio: ratio(m.rps, baseline.rps),
    p99Ratio: ratio(m.latencyMs.p99, baseline.latencyMs.p99),
    memoryRatio:
      m.memory && baseline.memory
        ? ratio(m.memory.perThousandMb, baseline.memory.perThousandMb)
        : null,
  }));
}

/** One line per scenario that measured memory (realtime), or nothing. */
export function formatMemory(reports: ScenarioReport[]): string {
  return reports
    .filter((r) => r.memory)
    .map((r) => {
      const memory = r.memory;
      if (!memory) return '';
      const vs =
        r.name === r.baseline ? '' : `, ${r.memoryRatio?.toFixed(2) ?? '-'}× ${r.baseline}`;
      return (
        `${r.name}: ${memory.perThousandMb.toFixed(1)} MB RSS per 1,000 idle connections ` +
        `(${memory.idleRssMb.toFixed(0)} → ${memory.connectedRssMb.toFixed(0)} MB ` +
        `with ${memory.clients}${vs})\n`
      );
    })
    .join('');
}

export function describeMachine(): BenchReport['machine'] {
  return {
    node: process.version,
    platform: `${process.platform} ${release()}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
  };
}

export function formatTable(reports: ScenarioReport[]): string {
  const fixed = (value: number | null, digits: number) =>
    value === null ? '-' : value.toFixed(digits);
  // autocannon records whole milliseconds today; trailing zeros would suggest more precision.
  const ms = (value: number) => String(Math.round(value * 100) / 100);
  const header = [
    'scenario',
    'request',
    'rps',
    'p50 ms',
    'p99 ms',
    'rps ratio',
    'p99 ratio',
    'cpu µs/req',
  ];
  const rows = reports.map((r) => [
    r.name,
    `${r.method} ${r.path}`,
    fixed(r.rps, 0),
    ms(r.latencyMs.p50),
    ms(r.latencyMs.p99),
    fixed(r.rpsRatio, 2),
    fixed(r.p99Ratio, 2),
    fixed(r.cpuUsPerRequest ?? null, 0),
  ]);
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)),
  );
  // Text columns left-aligned, figures right-aligned so their digits line up.
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i < 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ');
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** Writes bench-results/latest.json and returns its path. */
export async function writeReport(report: BenchReport): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const path = `${RESULTS_DIR}latest.json`;
  await writeFile(path, `${JSON.stringify(report, null, 2)}\n`);
  return path;
}
