import { type Measurement, measureScenario } from './measure.ts';
import { readOptions } from './options.ts';
import { compare, describeMachine, formatTable, writeReport } from './report.ts';
import { BASELINE, SCENARIOS } from './scenarios.ts';
import { type ServerProcess, startServer } from './server-process.ts';
import { SERVERS, type ServerName } from './servers.ts';

// Compares each scenario with a bare Fastify hello-world on the same machine in the same run,
// so the figures say what our code costs rather than how fast this particular box is.
async function main(signal: AbortSignal, running: ServerProcess[]): Promise<boolean> {
  const startedAt = new Date().toISOString();
  const options = readOptions();
  const unknown = options.only.filter((name) => !SCENARIOS.some((s) => s.name === name));
  if (unknown.length > 0) throw new Error(`BENCH_ONLY names no scenario: ${unknown.join(', ')}`);
  const chosen = SCENARIOS.filter(
    (s) => options.only.length === 0 || options.only.includes(s.name),
  );

  const needed = [...new Set<ServerName>([BASELINE.server, ...chosen.map((s) => s.server)])];
  log(`starting servers: ${needed.join(', ')}`);
  // allSettled, so a server that did start is recorded (and later stopped) even if another fails.
  const started = await Promise.allSettled(needed.map((name) => startServer(name, SERVERS[name])));
  const servers: ServerProcess[] = [];
  for (const outcome of started) if (outcome.status === 'fulfilled') servers.push(outcome.value);
  running.push(...servers);
  const failure = started.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
  const baseUrl = (name: ServerName) => servers.find((s) => s.name === name)?.baseUrl ?? '';

  // One after the other: on two cores, concurrent runs would measure each other.
  const measured: Measurement[] = [];
  for (const scenario of [BASELINE, ...chosen]) {
    log(`${scenario.name}: ${options.warmup} s warm-up, ${options.duration} s measured`);
    measured.push(await measureScenario(scenario, baseUrl(scenario.server), options, signal));
  }
  const [baseline, ...rest] = measured;
  if (!baseline) throw new Error('the baseline was not measured');

  const scenarios = compare(baseline, rest);
  process.stdout.write(
    `\n${formatTable(scenarios)}\n\n` +
      `${options.connections} connections, pipelining ${options.pipelining}, ` +
      `ratios are scenario / ${baseline.name}\n`,
  );
  const path = await writeReport({
    startedAt,
    machine: describeMachine(),
    options,
    baseline: baseline.name,
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
