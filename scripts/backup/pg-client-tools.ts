import { execFile, spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BackupError } from './backup-cli.ts';

// PostgreSQL's own client programs, pg_dump and pg_restore, of a version that fits the
// server. pg_dump refuses a server newer than itself ("server version mismatch"), and an
// archive is best restored by the pg_restore of the target's version, so we pick among every
// version installed: Debian keeps each in /usr/lib/postgresql/<major>/bin (the `postgresql`
// or `postgresql-client-<major>` packages; apt.postgresql.org has the newer ones), and
// /usr/bin/pg_dump is a wrapper that runs the newest. Elsewhere, the ones on the PATH.

const run = promisify(execFile);

const DEBIAN_VERSIONS = '/usr/lib/postgresql';

export type PgTool = 'pg_dump' | 'pg_restore';

export interface PgClient {
  tool: PgTool;
  path: string;
  /** `15.18` */
  version: string;
  major: number;
}

/** The major version in a `--version` line or a server version: `15.18 (Debian …)` → 15. */
export function majorOf(version: string): number | undefined {
  const match = /(\d+)(?:\.\d+)*/.exec(version);
  return match ? Number(match[1]) : undefined;
}

async function probe(tool: PgTool, path: string): Promise<PgClient | undefined> {
  try {
    const { stdout } = await run(path, ['--version'], { timeout: 10_000 });
    const version = /(\d+(?:\.\d+)*)/.exec(stdout)?.[1];
    const major = version ? majorOf(version) : undefined;
    return version && major ? { tool, path, version, major } : undefined;
  } catch {
    return undefined;
  }
}

/** Every installed version of `tool`, oldest first. */
export async function installedClients(tool: PgTool): Promise<PgClient[]> {
  const versions = await readdir(DEBIAN_VERSIONS).catch(() => [] as string[]);
  const paths = [...versions.map((version) => join(DEBIAN_VERSIONS, version, 'bin', tool)), tool];
  const found = (await Promise.all(paths.map((path) => probe(tool, path)))).filter(
    (client): client is PgClient => client !== undefined,
  );
  return found.sort((a, b) => a.major - b.major);
}

const listed = (clients: PgClient[]) =>
  clients.length === 0
    ? 'none'
    : [...new Set(clients.map((client) => `${client.tool} ${client.version}`))].join(', ');

/**
 * pg_dump for a server of `serverMajor`: the same major, else the oldest newer one (it dumps
 * older servers); none older, which would refuse.
 */
export async function pgDumpFor(serverMajor: number): Promise<PgClient> {
  const clients = await installedClients('pg_dump');
  const fits = clients.filter((client) => client.major >= serverMajor);
  const chosen = fits.find((client) => client.major === serverMajor) ?? fits[0];
  if (chosen) return chosen;
  throw new BackupError(
    `the server runs PostgreSQL ${serverMajor}, and pg_dump dumps no server newer than itself ` +
      `(found: ${listed(clients)}); install postgresql-client-${serverMajor} ` +
      `(Debian: from apt.postgresql.org)`,
  );
}

/**
 * pg_restore for an archive made by pg_dump `dumpMajor` into a server of `targetMajor`: it
 * must read the archive (as new as its pg_dump), and of the target's major it speaks the
 * target's SQL best; else the oldest that reads the archive.
 */
export async function pgRestoreFor(dumpMajor: number, targetMajor: number): Promise<PgClient> {
  const clients = await installedClients('pg_restore');
  const reads = clients.filter((client) => client.major >= dumpMajor);
  const chosen = reads.find((client) => client.major === targetMajor) ?? reads[0];
  if (chosen) return chosen;
  throw new BackupError(
    `the backup was made by pg_dump ${dumpMajor}, which no pg_restore here can read ` +
      `(found: ${listed(clients)}); install postgresql-client-${dumpMajor}`,
  );
}

/**
 * The connection for a client program: the URL as libpq reads it, but the password in the
 * environment rather than on the command line, where `ps` would show it to every user.
 */
export function libpqConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return {
    dbname: parsed.toString(),
    // libpq waits for an unanswering host as long as TCP does; give up like the app does.
    env: { PGCONNECT_TIMEOUT: '10', ...(password ? { PGPASSWORD: password } : {}) },
  };
}

/** Runs a client program; its own error line (not the whole log) when it fails. */
export async function runClient(
  client: PgClient,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const child = spawn(client.path, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code === 0) return stdout;
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const reason =
    lines.find((line) => line.includes('error:')) ?? lines.at(-1) ?? `exit code ${code}`;
  throw new BackupError(`${client.tool} ${client.version} failed: ${reason}`);
}
