import type { Result } from 'autocannon';
import { type LoadTarget, runLoad } from './load.ts';
import type { BenchOptions } from './options.ts';
import type { Scenario, SetupContext } from './scenarios.ts';
import type { ServerProcess } from './server-process.ts';

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

function setupContext(baseUrl: string): SetupContext {
  return {
    baseUrl,
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

async function loadTarget(scenario: Scenario, baseUrl: string): Promise<LoadTarget> {
  // A path like `//host/x` would resolve to another host; the harness stays on loopback.
  if (!scenario.path.startsWith('/') || scenario.path.startsWith('//')) {
    throw new Error(`scenario ${scenario.name}: path must start with a single /`);
  }
  const extra = (await scenario.setup?.(setupContext(baseUrl))) ?? {};
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

/** Warms the endpoint up, then measures it; the warm-up's figures are thrown away. */
export async function measureScenario(
  scenario: Scenario,
  server: Pick<ServerProcess, 'baseUrl' | 'pid'>,
  options: BenchOptions,
  signal: AbortSignal,
): Promise<Measurement> {
  const { baseUrl } = server;
  if (scenario.measure) {
    return scenario.measure({ scenario, baseUrl, pid: server.pid, options, signal });
  }
  const target = await loadTarget(scenario, baseUrl);
  if (options.warmup > 0) await runLoad(target, options, options.warmup, signal);
  const result = await runLoad(target, options, options.duration, signal);
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
    errors: result.errors,
    timeouts: result.timeouts,
    statusCounts: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]),
    ),
    problems: problemsOf(result, scenario.expectStatus ?? 200),
  };
}
