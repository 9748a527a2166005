import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stopChild } from '#server/test/server-process.ts';
import type { ServerName } from './servers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// PGlite's in-memory start plus migrations takes several seconds on this machine.
const START_TIMEOUT_MS = 60_000;

export interface ServerProcess {
  name: ServerName;
  baseUrl: string;
  /** The server's own node process, e.g. to read its memory. */
  pid: number;
  stop(): Promise<void>;
}

function readPort(line: string): number | undefined {
  try {
    const message: unknown = JSON.parse(line);
    if (typeof message !== 'object' || message === null || !('port' in message)) return;
    const { port } = message;
    return typeof port === 'number' && Number.isInteger(port) && port > 0 ? port : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts a server in its own node process, so the load generator never shares an event loop
 * with it. Node is spawned directly (not through npx) so that the PID we kill is the server.
 */
export async function startServer(name: ServerName, entry: string): Promise<ServerProcess> {
  // BENCH_CPU_PROF_DIR: each server writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF_DIR;
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(process.execPath, [...flags, '--expose-gc', '--import', 'tsx', entry], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const stop = () => stopChild(child);

  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    const fail = (reason: string) => {
      cleanUp();
      reject(new Error(`${name} server ${reason}`));
    };
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const found = readPort(line);
        if (found !== undefined) {
          cleanUp();
          resolve(found);
          return;
        }
        process.stderr.write(`[${name}] ${line}\n`);
      }
    };
    const onExit = (code: number | null, signal: string | null) =>
      fail(`exited (${signal ?? `code ${code}`}) before listening`);
    const onError = (error: Error) => fail(`could not start: ${error.message}`);
    const timer = setTimeout(
      () => fail(`did not listen within ${START_TIMEOUT_MS} ms`),
      START_TIMEOUT_MS,
    );
    const cleanUp = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });

  // Keep draining stdout: a full pipe would block the server mid-benchmark.
  child.stdout?.on('data', (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk}`));
  return { name, baseUrl: `http://127.0.0.1:${port}`, pid: child.pid ?? 0, stop };
}
