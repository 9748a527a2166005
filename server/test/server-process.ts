import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

// A real `node server/main.ts` in its own process, as one of N behind a load balancer: for
// the tests of what crosses processes (Redis fan-out, shared presence). Free of any test
// runner, so Vitest files and Playwright journeys both use it.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 10_000;

export interface ServerProcess {
  url: string;
  port: number;
  /** SIGTERM, as a deployment would, and waits for the exit (SIGKILL if it hangs). */
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** SIGTERM, then SIGKILL if the child has not exited within STOP_TIMEOUT_MS. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts the server on a free loopback port with an in-memory data folder and no demo data,
 * `env` on top; resolves once GET /readyz answers 200.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // node itself, not npx: the PID kept is the server's, so SIGTERM reaches it.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_URL: url,
      DATA_DIR: 'memory://',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const stop = () => stopChild(child);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    // A child killed by a signal (the OOM killer, a crash in native code) keeps exitCode null.
    if (child.exitCode !== null || child.signalCode !== null) {
      const how = child.signalCode ?? `code ${child.exitCode}`;
      throw new Error(`server on ${port} exited (${how}) before it was ready: ${stderr}`);
    }
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { url, port, stop };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server on ${port} did not become ready: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
