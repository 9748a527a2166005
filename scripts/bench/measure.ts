import { readFile } from 'node:fs/promises';
import type { Result } from 'autocannon';
import { type LoadTarget, runLoad } from './load.ts';
import type { BenchOptions } from './options.ts';
import type { Scenario, SetupContext } from './scenarios.ts';
import type { ServerProcess } from './server-process.ts';
import type { ServerName } from './servers.ts';

const SETUP_REQUEST_TIMEOUT_MS = 15_000;

export interface Measurement {
  name: string;
  server: string;
  method: string;
  path: string;
  /** Mean of the per-second request counts. */
  rps: number;
  rpsStddev: number;
  latencyMs: { p50: number; p90: number; p99: number; average: number; max: number };
  requests: number;
  /**
   * CPU time (user + system) the server's process spent per measured request, in µs; Linux
   * only. Steadier than rps on a machine that is busy with other work: what our code costs.
   */
  cpuUsPerRequest?: number;
  errors: number;
  timeouts: number;
  statusCounts: Record<string, number>;
  /** Why these figures cannot be trusted; empty when the run was clean. */
  problems: string[];
  /** The server's resident memory with and without the scenario's idle connections. */
  memory?: {
    clients: number;
    idleRssMb: number;
    connectedRssMb: number;
    perThousandMb: number;
  };
}

// Linux reports a process's CPU time in ticks of USER_HZ, which is 100 on every architecture.
const TICK_US = 10_000;

/** CPU time the process has used so far, in µs; undefined where /proc is not there. */
export async function cpuTimeUs(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) in parentheses; utime, stime.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * TICK_US : undefined;
  } catch {
    return undefined;
  }
}

function setupContext(baseUrl: string, urlOf: (server: ServerName) => string): SetupContext {
  return {
    baseUrl,
    on: (server) => setupContext(urlOf(server), urlOf),
    async request(method, path, body, headers = {}) {
      const response = await fetch(new URL(path, baseUrl), {
        method,
        headers: {
          // The product refuses state-changing calls without it (CSRF guard).
          'x-requested-with': 'fetch',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(SETUP_REQUEST_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`setup ${method} ${path} answered ${response.status}`);
      return response;
    },
  };
}

async function loadTarget(
  scenario: Scenario,
  baseUrl: string,
  urlOf: (server: ServerName) => string,
): Promise<LoadTarget> {
  // A path like `//host/x` would resolve to another host; the harness stays on loopback.
  if (!scenario.path.startsWith('/') || scenario.path.startsWith('//')) {
    throw new Error(`scenario ${scenario.name}: path must start with a single /`);
  }
  const extra = (await scenario.setup?.(setupContext(baseUrl, urlOf))) ?? {};
  const hasBody = scenario.body !== undefined || scenario.bodies !== undefined;
  return {
    url: `${baseUrl}${scenario.path}`,
    method: scenario.method ?? 'GET',
    headers: {
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
      ...scenario.headers,
      ...extra,
    },
    ...(scenario.body !== undefined ? { body: JSON.stringify(scenario.body) } : {}),
    ...(scenario.bodies ? { bodies: scenario.bodies.map((body) => JSON.stringify(body)) } : {}),
    ...(scenario.varyClientAddress ? { varyClientAddress: true } : {}),
  };
}

function problemsOf(result: Result, expectStatus: number): string[] {
  const problems: string[] = [];
  if (result.requests.total === 0) problems.push('no request completed');
  if (result.errors > 0) problems.push(`${result.errors} errors (${result.timeouts} timeouts)`);
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) {
    if (Number(status) !== expectStatus) problems.push(`${count} responses with status ${status}`);
  }
  return problems;
}

/**
 * Warms the endpoint up, then measures it; the warm-up's figures are thrown away. `urlOf`
 * finds the other running servers, for a setup that prepares one on another's behalf.
 */
export async function measureScenario(
  scenario: Scenario,
  server: Pick<ServerProcess, 'baseUrl' | 'pid'>,
  options: BenchOptions,
  signal: AbortSignal,
  urlOf: (server: ServerName) => string,
): Promise<Measurement> {
  const { baseUrl } = server;
  if (scenario.measure) {
    return scenario.measure({ scenario, baseUrl, pid: server.pid, options, signal });
  }
  const target = await loadTarget(scenario, baseUrl, urlOf);
  if (options.warmup > 0) await runLoad(target, options, options.warmup, signal);
  const cpuBefore = await cpuTimeUs(server.pid);
  const result = await runLoad(target, options, options.duration, signal);
  const cpuAfter = await cpuTimeUs(server.pid);
  const cpuUs =
    cpuBefore !== undefined && cpuAfter !== undefined && result.requests.total > 0
      ? (cpuAfter - cpuBefore) / result.requests.total
      : undefined;
  return {
    name: scenario.name,
    server: scenario.server,
    method: target.method,
    path: scenario.path,
    rps: result.requests.mean,
    rpsStddev: result.requests.stddev,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      average: result.latency.average,
      max: result.latency.max,
    },
    requests: result.requests.total,
    ...(cpuUs !== undefined ? { cpuUsPerRequest: cpuUs } : {}),
    errors: result.errors,
    timeouts: result.timeouts,
    statusCounts: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]),
    ),
    problems: problemsOf(result, scenario.expectStatus ?? 200),
  };
}
