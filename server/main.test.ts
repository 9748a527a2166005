import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const MIGRATE = fileURLToPath(new URL('../scripts/db-migrate.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

// Each process runs in an empty folder of its own, so a developer's .env (or ./data) in the
// repository cannot change what these tests see.
const folders: string[] = [];
afterAll(() => Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true }))));

async function emptyFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vpn-main-'));
  folders.push(dir);
  return dir;
}

function startServer(env: Record<string, string>, cwd: string, entry = MAIN): ChildProcess {
  return spawn(process.execPath, ['--import', TSX, entry], {
    cwd,
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
      startServer({ PORT: 'eighty', FEATURES: 'billing,warp' }, await emptyFolder()),
    );
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^Invalid configuration: PORT: .*; FEATURES.*/);
  });

  it('reads an optional .env, where the real environment wins', async () => {
    const cwd = await emptyFolder();
    await writeFile(
      join(cwd, '.env'),
      '# settings of this machine\nFEATURES=billing,warp\nLOCALES=en,de\nPORT=80\n',
    );
    // Bad values, so that the process stops at once and names what it read.
    const { code, stderr } = await collect(
      startServer({ NODE_ENV: 'development', LOCALES: 'en,nl', PORT: 'x' }, cwd),
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Invalid configuration: /);
    // From the file: FEATURES; from the environment over the file: LOCALES (valid) and PORT.
    expect(stderr).toContain('FEATURES');
    expect(stderr).not.toContain('LOCALES');
    expect(stderr).toContain('PORT');
  });

  it('reads the same .env when migrating alone (npm run db:migrate)', async () => {
    const cwd = await emptyFolder();
    await writeFile(join(cwd, '.env'), 'DATABASE_URL=mysql://localhost/vpn\n');
    const { code, stderr } = await collect(startServer({ NODE_ENV: 'development' }, cwd, MIGRATE));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Invalid configuration: DATABASE_URL/);
  });

  it('does not read the .env of a folder it is tested in (NODE_ENV=test)', async () => {
    const cwd = await emptyFolder();
    await writeFile(join(cwd, '.env'), 'FEATURES=billing,warp\n');
    const { code, stderr } = await collect(startServer({ PORT: 'x' }, cwd));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Invalid configuration: PORT: [^;]*$/);
  });

  it('serves, then shuts down gracefully on SIGTERM', { timeout: 60_000 }, async () => {
    const cwd = await emptyFolder();
    // The in-memory database comes from the .env: without it the process would make ./data.
    await writeFile(join(cwd, '.env'), 'DATA_DIR=memory://\n');
    const child = startServer({ NODE_ENV: 'development', PORT: '0', LOG_LEVEL: 'info' }, cwd);
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
    expect(await readdir(cwd)).toEqual(['.env']);
  });
});
