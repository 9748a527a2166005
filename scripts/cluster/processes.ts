import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

// A long-running child of the cluster (an app process, the balancer) whose output goes to a
// log file, which can be killed the hard way and started again.

export interface ManagedProcess {
  readonly name: string;
  /** Running now (started and not exited). */
  running(): boolean;
  /** The running process's id, for reading its memory and open files from /proc. */
  pid(): number | undefined;
  start(): Promise<void>;
  /** Sends the signal and waits for the exit (SIGKILL after `timeoutMs`). */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<void>;
  /** How the last run ended: an exit code, or the signal that ended it. */
  lastExit(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Every exit seen, oldest first (a crash shows here as an exit nobody asked for). */
  readonly exits: { code: number | null; signal: NodeJS.Signals | null; asked: boolean }[];
}

export interface ProcessSpec {
  name: string;
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
  logFile: string;
  /** Resolves once the process is ready to serve (polls until then). */
  ready: () => Promise<boolean>;
  readyTimeoutMs?: number;
}

export function managedProcess(spec: ProcessSpec): ManagedProcess {
  const log = createWriteStream(spec.logFile, { flags: 'a' });
  let child: ChildProcess | undefined;
  let asked = false;
  const exits: ManagedProcess['exits'] = [];

  const running = () => child !== undefined && child.exitCode === null && !child.signalCode;

  async function start(): Promise<void> {
    if (running()) return;
    asked = false;
    // node itself, never npx: the PID kept is the server's, so signals reach it.
    const started = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    started.stdout?.pipe(log, { end: false });
    started.stderr?.pipe(log, { end: false });
    started.on('exit', (code, signal) => exits.push({ code, signal, asked }));
    const deadline = Date.now() + (spec.readyTimeoutMs ?? 120_000);
    while (Date.now() < deadline) {
      if (started.exitCode !== null || started.signalCode) {
        throw new Error(`${spec.name} exited before it was ready: see ${spec.logFile}`);
      }
      if (await spec.ready().catch(() => false)) return;
      await sleep(200);
    }
    throw new Error(`${spec.name} was not ready in time: see ${spec.logFile}`);
  }

  async function stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 30_000): Promise<void> {
    const current = child;
    if (!current || !running()) return;
    asked = true;
    const exited = once(current, 'exit');
    current.kill(signal);
    const timer = setTimeout(() => current.kill('SIGKILL'), timeoutMs);
    await exited;
    clearTimeout(timer);
  }

  return {
    name: spec.name,
    running,
    pid: () => (running() ? child?.pid : undefined),
    start,
    stop,
    exits,
    lastExit: () => exits[exits.length - 1],
  };
}

/** GET `url` answers 200 within a second. */
export async function answersOk(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
  await response.body?.cancel();
  return response.ok;
}
