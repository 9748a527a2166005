import { type Measurement, measureScenario } from './measure.ts';
import { readOptions } from './options.ts';
import {
  compare,
  describeMachine,
  formatMemory,
  formatTable,
  type ScenarioReport,
  writeReport,
} from './report.ts';
import { BASELINE, SCENARIOS, type Scenario } from './scenarios.ts';
import { type ServerProcess, startServer } from './server-process.ts';
import { SERVERS, type ServerName } from './servers.ts';

// Compares each scenario with a baseline on the same machine in the same run (a bare Fastify
// hello-world for HTTP, the same session join on bare Fastify and `pg` for get-auth-user on
// PostgreSQL, a bare ws server for realtime), so the figures say what our code costs
// rather than how fast this particular box is.
async function main(signal: AbortSignal, running: ServerProcess[]): Promise<boolean> {
  const startedAt = new Date().toISOString();
  const options = readOptions();
  const unknown = options.only.filter((name) => !SCENARIOS.some((s) => s.name === name));
  if (unknown.length > 0) throw new Error(`BENCH_ONLY names no scenario: ${unknown.join(', ')}`);
  const chosen = SCENARIOS.filter(
    (s) => options.only.length === 0 || options.only.includes(s.name),
  );
  // Each chosen scenario brings its baseline; a baseline runs once, before its scenarios.
  const groups = new Map<Scenario, Scenario[]>();
  for (const scenario of chosen) {
    const baseline = scenario.baseline ?? BASELINE;
    groups.set(baseline, [...(groups.get(baseline) ?? []), scenario]);
  }
  if (groups.size === 0) groups.set(BASELINE, []);

  const everyScenario = [...groups].flatMap(([baseline, members]) => [baseline, ...members]);
  const needed = [...new Set<ServerName>(everyScenario.map((s) => s.server))];
  log(`starting servers: ${needed.join(', ')}`);
  // allSettled, so a server that did start is recorded (and later stopped) even if another fails.
  const started = await Promise.allSettled(needed.map((name) => startServer(name, SERVERS[name])));
  const servers: ServerProcess[] = [];
  for (const outcome of started) if (outcome.status === 'fulfilled') servers.push(outcome.value);
  running.push(...servers);
  const failure = started.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
  const serverOf = (name: ServerName) => {
    const server = servers.find((s) => s.name === name);
    if (!server) throw new Error(`the ${name} server is not running`);
    return server;
  };

  // One after the other: on two cores, concurrent runs would measure each other.
  const scenarios: ScenarioReport[] = [];
  for (const [baselineScenario, members] of groups) {
    const measured: Measurement[] = [];
    for (const scenario of [baselineScenario, ...members]) {
      log(`${scenario.name}: ${options.warmup} s warm-up, ${options.duration} s measured`);
      const urlOf = (name: ServerName) => serverOf(name).baseUrl;
      measured.push(
        await measureScenario(scenario, serverOf(scenario.server), options, signal, urlOf),
      );
    }
    const [baseline, ...rest] = measured;
    if (!baseline) throw new Error('the baseline was not measured');
    scenarios.push(...compare(baseline, rest));
  }

  process.stdout.write(
    `\n${formatTable(scenarios)}\n\n` +
      `${options.connections} connections, pipelining ${options.pipelining}, ` +
      `ratios are scenario / its baseline (${[...groups.keys()].map((s) => s.name).join(', ')})\n` +
      formatMemory(scenarios),
  );
  const path = await writeReport({
    startedAt,
    machine: describeMachine(),
    options,
    baselines: [...groups.keys()].map((s) => s.name),
    scenarios,
  });
  log(`wrote ${path}`);

  const failed = scenarios.filter((s) => s.problems.length > 0);
  for (const s of failed) log(`FAILED ${s.name}: ${s.problems.join('; ')}`);
  return failed.length === 0;
}

function log(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

async function stopAll(running: ServerProcess[]): Promise<void> {
  await Promise.allSettled(running.map((server) => server.stop()));
}

const running: ServerProcess[] = [];
const abort = new AbortController();
const interrupt = (signal: NodeJS.Signals) => {
  log(`${signal}: stopping`);
  abort.abort();
  // Exit even if a step ignores the abort, with the conventional 128 + signal number.
  void stopAll(running).then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
};
process.once('SIGINT', interrupt);
process.once('SIGTERM', interrupt);

let ok = false;
try {
  ok = await main(abort.signal, running);
} catch (error) {
  log(`error: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await stopAll(running);
}
// Exit explicitly: a lingering socket or timer must not keep the run alive.
process.exit(ok ? 0 : 1);
