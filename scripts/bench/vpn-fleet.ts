import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { testConfig } from '#server/config.ts';
import { sessionCookieName } from '#server/modules/identity/auth-plugin.ts';
import { POLL_WAIT_MS, REPORT_INTERVAL_MS } from '#shared/vpn/fleet-rules.ts';
import {
  backendCpuBetween,
  readBackendCpu,
  readWritesAfterFlush,
  readWritesAtRest,
  rowsWritten,
} from './fleet-database-load.ts';
import { type FleetFigures, formatFleet, summarizeFleet } from './fleet-figures.ts';
import { httpTarget } from './fleet-http.ts';
import { SimulatedFleet } from './fleet-nodes.ts';
import { PeerChangeProbes } from './fleet-probes.ts';
import { seedFleet } from './fleet-seed.ts';
import { cpuTimeUs, type Measurement } from './measure.ts';
import type { CustomMeasureContext } from './scenarios.ts';

// The VPN fleet at production size against one API process on PostgreSQL: BENCH_FLEET_NODES
// nodes (1,000) with BENCH_FLEET_PEERS peers each (100) seeded in the product's database
// (fleet-seed.ts), simulated from this process (fleet-nodes.ts: a long poll each, a report
// every 10 s, spread over the 10 s), customers changing a device's key every half second
// (fleet-probes.ts); measured over the window: the reports' latency, the server's and
// PostgreSQL's CPU per report, whole-set polls, and how long a change takes to reach its
// node; and the rows written per report over the run. PostgreSQL only (BENCH_DATABASE_URL):
// PGlite, one connection inside the server's own process, is not what a fleet runs on.

/** A probe every half second: many changes per window, few enough to be no load. */
const PROBE_EVERY_MS = 500;
/** One node a second fetches its whole set again: the poll-with-change figure. */
const FULL_SET_EVERY_MS = 1_000;
const READY_TIMEOUT_MS = 120_000;

function sizeFromEnv(name: string, fallback: number, max: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new Error(`${name} must be an integer from 1 to ${max}, got "${raw}"`);
  }
  return value;
}

/** Signal 0 only asks whether the process is there. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function log(message: string): void {
  process.stderr.write(`bench: vpn-fleet: ${message}\n`);
}

export async function measureFleet(context: CustomMeasureContext): Promise<Measurement> {
  const { options, signal, scenario, pid } = context;
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error('vpn-fleet runs on PostgreSQL only: set BENCH_DATABASE_URL');
  const nodes = sizeFromEnv('BENCH_FLEET_NODES', 1_000, 5_000);
  const peersPerNode = sizeFromEnv('BENCH_FLEET_PEERS', 100, 1_000);

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const target = httpTarget(context.baseUrl, nodes * 2 + 64);
  let fleet: SimulatedFleet | undefined;
  let probes: PeerChangeProbes | undefined;
  try {
    log(`seeding ${nodes} servers × ${peersPerNode} peers`);
    const seeded = await seedFleet(
      client,
      { nodes, peersPerNode },
      sessionCookieName(testConfig()),
    );
    log(
      `seeded in ${seeded.seconds.toFixed(1)} s; starting the nodes over ${POLL_WAIT_MS / 1000} s`,
    );
    const writesBefore = await readWritesAtRest(client);

    const changes = new PeerChangeProbes(target, seeded.probes, (serverId) =>
      Boolean(fleet?.isPolling(serverId)),
    );
    probes = changes;
    const simulated = new SimulatedFleet(target, seeded.nodes, {
      reportIntervalMs: REPORT_INTERVAL_MS,
      // A poll ends its wait 25 s after it opens: nodes started over 25 s keep that steady
      // (about nodes / 25 a second), as a fleet whose nodes started at random times does.
      startSpreadMs: POLL_WAIT_MS,
      peersPerNode,
      onPeersChanged: (serverId, body, at) => changes.seen(serverId, body, at),
    });
    fleet = simulated;
    simulated.start();
    simulated.sampleFullSets(FULL_SET_EVERY_MS);
    changes.start(PROBE_EVERY_MS);

    // Warm-up: every node started, then two report periods (or BENCH_WARMUP if longer): the
    // start leaves the server a backlog and a cold JIT, which one period did not always clear.
    const deadline = performance.now() + READY_TIMEOUT_MS;
    while (simulated.readyNodes < nodes && performance.now() < deadline && !signal.aborted) {
      await sleep(250);
      if (!isRunning(pid)) throw new Error('the product server exited (its output is above)');
    }
    if (simulated.readyNodes < nodes) {
      const faults = simulated.faults.join('; ');
      throw new Error(`only ${simulated.readyNodes} of ${nodes} nodes started (${faults})`);
    }
    await sleep(Math.max(options.warmup * 1000, 2 * REPORT_INTERVAL_MS), undefined, { signal });

    log(`${options.duration} s measured`);
    const databaseBefore = await readBackendCpu(client);
    const serverBefore = await cpuTimeUs(pid);
    const runnerBefore = process.cpuUsage();
    const from = performance.now();
    await sleep(options.duration * 1000, undefined, { signal });
    const to = performance.now();
    const runner = process.cpuUsage(runnerBefore);
    const serverAfter = await cpuTimeUs(pid);
    const databaseAfter = await readBackendCpu(client);

    log('stopping the nodes; waiting for the row counters');
    await changes.stop();
    await simulated.stop();
    if (!isRunning(pid)) throw new Error('the product server exited (its output is above)');
    const writesAfter = await readWritesAfterFlush(client);

    const figures = summarizeFleet({
      nodes,
      peersPerNode,
      people: seeded.people,
      seedSeconds: seeded.seconds,
      from,
      to,
      reports: simulated.reports,
      fullSets: simulated.fullSets,
      changes: changes.samples,
      changeCounts: {
        seenBeforeAnswer: changes.seenBeforeAnswer,
        missed: changes.missed,
        failed: changes.failed,
      },
      serverCpuUs:
        serverBefore !== undefined && serverAfter !== undefined
          ? serverAfter - serverBefore
          : undefined,
      databaseCpuUs: backendCpuBetween(databaseBefore, databaseAfter),
      runnerCpuUs: runner.user + runner.system,
      rows: rowsWritten(writesBefore, writesAfter),
      reportsInRun: simulated.reports.filter((r) => r.ok).length,
      pollsTimedOut: simulated.pollsTimedOut,
      pollsChanged: simulated.pollsChanged,
    });
    process.stdout.write(`\n${formatFleet(figures)}`);
    return asMeasurement(scenario.name, scenario.path, figures, {
      statuses: simulated.reports.filter((r) => r.at >= from && r.at < to).map((r) => r.status),
      problems: [
        ...(simulated.faultCount > 0
          ? [`${simulated.faultCount} node faults, e.g. ${simulated.faults.join('; ')}`]
          : []),
        ...(changes.failed > 0
          ? [`${changes.failed} rekeys failed, e.g. ${changes.firstFailure}`]
          : []),
        ...(changes.missed > 0 ? [`${changes.missed} changes never reached their node`] : []),
        ...(changes.unexpected > 0 ? [`${changes.unexpected} unexpected peer changes`] : []),
        ...(figures.peerChange.count === 0 ? ['no peer change was measured'] : []),
      ],
    });
  } finally {
    // Both stop idempotently: after the window they have stopped; on a failure, at once.
    await probes?.stop(0);
    await fleet?.stop();
    await client.end();
  }
}

/**
 * The harness's row for the table and its ratios: the reports (rps is reports counted a
 * second, CPU per report); the rest of the figures ride along as `fleet` into latest.json.
 */
function asMeasurement(
  name: string,
  path: string,
  figures: FleetFigures,
  window: { statuses: number[]; problems: string[] },
): Measurement & { fleet: FleetFigures } {
  const statusCounts: Record<string, number> = {};
  for (const status of window.statuses) {
    statusCounts[status] = (statusCounts[status] ?? 0) + 1;
  }
  const failed = window.statuses.filter((status) => status !== 200).length;
  const { report } = figures;
  return {
    name,
    server: 'product',
    method: 'POST',
    path: `${path} ×${figures.nodes} nodes`,
    rps: figures.reportsAnswered / figures.windowSeconds,
    rpsStddev: 0,
    latencyMs: {
      p50: report.p50,
      p90: report.p90,
      p99: report.p99,
      average: report.mean,
      max: report.max,
    },
    requests: report.count,
    ...(figures.cpuUsPerReport !== null ? { cpuUsPerRequest: figures.cpuUsPerReport } : {}),
    errors: failed,
    timeouts: 0,
    statusCounts,
    problems: [...(failed > 0 ? [`${failed} reports failed`] : []), ...window.problems],
    fleet: figures,
  };
}
