import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';

function startServer(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', SEED_DEMO: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function collect(
  child: ChildProcess,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr, stdout };
}

describe('the server process', () => {
  it('stops at start-up with one clear line when a setting is bad', async () => {
    const { code, stderr } = await collect(
      startServer({ PORT: 'eighty', FEATURES: 'billing,warp' }),
    );
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^Invalid configuration: PORT: .*; FEATURES.*/);
  });

  it('serves, then shuts down gracefully on SIGTERM', { timeout: 60_000 }, async () => {
    const child = startServer({ PORT: '0', DATA_DIR: 'memory://', LOG_LEVEL: 'info' });
    const result = collect(child);
    const address = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('server did not start')), 45_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        const match = chunk.toString().match(/Server listening at (http:\/\/[\d.:]+)/);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    const response = await fetch(`${address}/readyz`);
    expect(await response.json()).toEqual({ status: 'ok', database: 'up' });
    child.kill('SIGTERM');
    const { code, stdout } = await result;
    expect(code).toBe(0);
    expect(stdout).toContain('shutting down');
  });
});
