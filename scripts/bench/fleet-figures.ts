import type { RowsWritten } from './fleet-database-load.ts';
import type { Sample } from './fleet-nodes.ts';
import type { ChangeSample } from './fleet-probes.ts';

// The vpn-fleet scenario's own figures (beside the harness's Measurement, in latest.json as
// `fleet`), the goals they are held to, and the block printed for them.

/** Issue "Benchmark in npm run bench": what the fleet must get from one API process. */
export const GOALS = { reportP99Ms: 50, peerChangeP99Ms: 1_000 } as const;

export interface Percentiles {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** What a fleet run collected, before it is summed up. */
export interface FleetRun {
  nodes: number;
  peersPerNode: number;
  people: number;
  seedSeconds: number;
  /** The measured window, in performance.now() time. */
  from: number;
  to: number;
  reports: Sample[];
  fullSets: Sample[];
  changes: ChangeSample[];
  changeCounts: { seenBeforeAnswer: number; missed: number; failed: number };
  /** CPU over the window, in µs: the product server's process, its PostgreSQL backends, ours. */
  serverCpuUs: number | undefined;
  databaseCpuUs: number | undefined;
  runnerCpuUs: number;
  /** Rows written from before the nodes started to after they stopped, and the reports then. */
  rows: RowsWritten;
  reportsInRun: number;
  pollsTimedOut: number;
  pollsChanged: number;
}

export interface FleetFigures {
  nodes: number;
  peersPerNode: number;
  devices: number;
  people: number;
  seedSeconds: number;
  windowSeconds: number;
  /** POST /report, each sent in the window. */
  report: Percentiles;
  /** Reports counted (answered 200) in the window: what the window's CPU is divided by. */
  reportsAnswered: number;
  /** GET /peers answered at once with a change (a whole set, as after an agent's restart). */
  pollChange: Percentiles;
  /** From the customer API's answer to a rekey to the node's poll holding the new key. */
  peerChange: Percentiles & { seenBeforeAnswer: number; missed: number; failed: number };
  /** The customer API's own time for those rekeys. */
  rekey: Percentiles;
  /** The product server's CPU over the window (every call of the fleet) per report. */
  cpuUsPerReport: number | null;
  /** PostgreSQL's CPU for the product's connections over the window, per report. */
  databaseCpuUsPerReport: number | null;
  /** Rows inserted, updated or deleted in the product's tables per report, over the run. */
  rowsPerReport: number;
  rowsByTable: { table: string; perReport: number }[];
  /** What the runner itself used of one core in the window: near 100 it measures itself. */
  runnerCpuPercent: number;
  pollsTimedOut: number;
  pollsChanged: number;
  goals: { goal: string; value: number; met: boolean }[];
}

export function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    count: sorted.length,
    p50: round(at(50)),
    p90: round(at(90)),
    p99: round(at(99)),
    max: round(sorted.at(-1) ?? 0),
    mean: round(sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length)),
  };
}

const perReport = (value: number | undefined, reports: number) =>
  value === undefined || reports === 0 ? null : Math.round(value / reports);
const tenths = (value: number) => Math.round(value * 10) / 10;

export function summarizeFleet(run: FleetRun): FleetFigures {
  const sent = (s: Sample | ChangeSample) => s.at >= run.from && s.at < run.to;
  const reports = run.reports.filter(sent);
  // The window's CPU did the work of the reports counted in it, which trail the ones sent in
  // it when the server falls behind; a refused one (a 500 after the pool's wait) did little.
  const answered = run.reports.filter(
    (r) => r.ok && r.at + r.ms >= run.from && r.at + r.ms < run.to,
  );
  const changes = run.changes.filter(sent);
  const report = percentiles(reports.map((r) => r.ms));
  const peerChange = percentiles(changes.map((c) => c.fromAnswerMs));
  const windowMs = run.to - run.from;
  return {
    nodes: run.nodes,
    peersPerNode: run.peersPerNode,
    devices: run.nodes * run.peersPerNode,
    people: run.people,
    seedSeconds: tenths(run.seedSeconds),
    windowSeconds: tenths(windowMs / 1000),
    report,
    reportsAnswered: answered.length,
    pollChange: percentiles(run.fullSets.filter(sent).map((s) => s.ms)),
    peerChange: { ...peerChange, ...run.changeCounts },
    rekey: percentiles(changes.map((c) => c.rekeyMs)),
    cpuUsPerReport: perReport(run.serverCpuUs, answered.length),
    databaseCpuUsPerReport: perReport(run.databaseCpuUs, answered.length),
    rowsPerReport: run.reportsInRun === 0 ? 0 : tenths(run.rows.rows / run.reportsInRun),
    rowsByTable: run.rows.byTable.map(({ table, rows }) => ({
      table,
      perReport: run.reportsInRun === 0 ? 0 : Math.round((rows / run.reportsInRun) * 100) / 100,
    })),
    runnerCpuPercent: Math.round((run.runnerCpuUs / 1000 / windowMs) * 100),
    pollsTimedOut: run.pollsTimedOut,
    pollsChanged: run.pollsChanged,
    goals: [
      {
        goal: `report p99 < ${GOALS.reportP99Ms} ms`,
        value: report.p99,
        met: report.count > 0 && report.p99 < GOALS.reportP99Ms,
      },
      {
        goal: `peer change p99 < ${GOALS.peerChangeP99Ms / 1000} s`,
        value: peerChange.p99,
        met: peerChange.count > 0 && peerChange.p99 < GOALS.peerChangeP99Ms,
      },
    ],
  };
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
const spread = (p: Percentiles, withMax = false) =>
  `p50 ${ms(p.p50)}  p90 ${ms(p.p90)}  p99 ${ms(p.p99)}${withMax ? `  max ${ms(p.max)}` : ''}`;
const figure = (value: number | null, unit: string) =>
  value === null ? '-' : `${value.toLocaleString('en')} ${unit}`;

/** The block printed when the scenario ends: what the harness's table has no column for. */
export function formatFleet(f: FleetFigures): string {
  const tables = f.rowsByTable
    .slice(0, 4)
    .map((t) => `${t.table} ${t.perReport}`)
    .join(', ');
  const change = f.peerChange;
  const lines = [
    `vpn-fleet: ${f.nodes} nodes × ${f.peersPerNode} peers (${f.devices} devices of ${f.people} ` +
      `people, seeded in ${f.seedSeconds} s), ${f.windowSeconds} s measured`,
    `  report            ${spread(f.report)}  (${f.report.count} sent, ` +
      `${f.reportsAnswered} counted in the window)`,
    `  poll with change  ${spread(f.pollChange)}  (${f.pollChange.count} whole sets at once)`,
    `  peer change       ${spread(change, true)}  (${change.count} rekeys; ` +
      `${change.seenBeforeAnswer} seen before the API's answer, ${change.missed} missed)`,
    `  rekey call        ${spread(f.rekey)}`,
    `  server CPU        ${figure(f.cpuUsPerReport, 'µs per report')} (all the fleet's calls)`,
    `  PostgreSQL CPU    ${figure(f.databaseCpuUsPerReport, 'µs per report')} (its connections)`,
    `  rows written      ${f.rowsPerReport} per report (${tables})`,
    `  runner CPU        ${f.runnerCpuPercent} % of a core`,
    ...f.goals.map((g) => `  goal ${g.goal}: ${g.met ? 'met' : 'NOT met'} (${ms(g.value)})`),
  ];
  return `${lines.join('\n')}\n`;
}
