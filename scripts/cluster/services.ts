import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

// The cluster's own PostgreSQL and Redis, from Debian's packages, on loopback: started,
// restarted (the fault suite restarts PostgreSQL under load) and stopped from here.

const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;

function pgBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(a) - Number(b)) : [];
  const bin = versions.length > 0 ? join(base, versions[versions.length - 1] ?? '', 'bin') : '';
  if (!bin || !existsSync(join(bin, 'initdb'))) {
    throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  }
  return bin;
}

/** initdb and the server refuse to run as root: as root they run as the postgres user. */
function asOwner(command: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

export interface Postgres {
  url: string;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A PostgreSQL cluster in `dir` (made on first use, kept after), listening on `port`. */
export async function startPostgres(dir: string, port: number): Promise<Postgres> {
  const bin = pgBin();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (asRoot) chownSync(dir, uid('postgres'), gid('postgres'));
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    await run(
      ...asOwner(join(bin, 'initdb'), ['-D', dir, '-U', 'postgres', '--auth=trust', '--no-sync']),
    );
  }
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-k ${dir}`,
    '-c max_connections=200',
  ].join(' ');
  const pgCtl = (...args: string[]) =>
    run(...asOwner(join(bin, 'pg_ctl'), ['-D', dir, '-l', join(dir, 'server.log'), ...args]));
  await pgCtl('-w', '-o', options, 'start');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    // Fast: sessions are cut, as when the database host reboots or fails over.
    restart: async () => {
      await pgCtl('-w', '-m', 'fast', '-o', options, 'restart');
    },
    stop: async () => {
      await pgCtl('-w', '-m', 'fast', 'stop').catch(() => {});
    },
  };
}

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

/** A Redis without persistence (counters and fan-out only) on `port`. */
export async function startRedis(dir: string, port: number): Promise<RedisServer> {
  mkdirSync(dir, { recursive: true });
  const pidFile = join(dir, 'redis.pid');
  await run('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--daemonize',
    'yes',
    '--save',
    '',
    '--appendonly',
    'no',
    '--pidfile',
    pidFile,
    '--logfile',
    join(dir, 'redis.log'),
  ]);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      try {
        process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGTERM');
      } catch {
        // Already gone.
      }
    },
  };
}

function idOf(name: string, field: 2 | 3): number {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line) throw new Error(`no ${name} user (apt-get install postgresql)`);
  return Number(line.split(':')[field]);
}
const uid = (name: string) => idOf(name, 2);
const gid = (name: string) => idOf(name, 3);
