import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';

// `npm run backup` and `npm run restore` as an operator runs them, on the embedded database:
// real processes, a real PGlite data folder with uploads beside it.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command in its own process, with only the settings given (and never a .env). */
async function command(script: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  const { DATABASE_URL, DATA_DIR, UPLOADS_DIR, APP_SECRET, ...inherited } = process.env;
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', `scripts/backup/${script}.ts`, ...args],
      { cwd: ROOT, env: { ...inherited, NODE_ENV: 'test', ...env } },
    );
    return { code: 0, stdout, stderr } satisfies Outcome;
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr } satisfies Outcome;
  }
}

describe('backing up the embedded database and its uploads', async () => {
  const root = await mkdtemp(join(tmpdir(), 'vpn-pglite-backup-'));
  afterAll(() => rm(root, { recursive: true, force: true }));
  const data = join(root, 'data');
  const backups = join(root, 'backups');
  const avatar = Buffer.from('RIFF\u0000\u0000WEBPVP8 an avatar');

  // A data folder as `npm start` leaves it: the database, an upload, the generated key.
  await mkdir(data, { recursive: true });
  const pglite = await PGlite.create(join(data, 'db'));
  await pglite.exec(`create table orders (id int primary key, email text);
                     insert into orders values (1, 'first@example.com'), (2, 'second@example.com')`);
  await mkdir(join(data, 'uploads', 'avatars'), { recursive: true });
  await writeFile(join(data, 'uploads', 'avatars', 'a1.webp'), avatar);
  await writeFile(join(data, 'app-secret'), 'the-key\n', { mode: 0o600 });

  it('refuses while the database is open, saying to stop the app', async () => {
    const refused = await command('backup', ['--out', `${backups}/`], { DATA_DIR: data });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^backup: the database in .* is open .*stop the app first/),
    ]);
    expect(await readdir(backups).catch(() => [])).toEqual([]);
  });

  it('backs up the stopped app, restores into a new folder, and the copy opens and reads', async () => {
    await pglite.close();
    const backup = await command('backup', ['--out', `${backups}/`], { DATA_DIR: data });
    expect(backup.code).toBe(0);
    const [file, ...others] = await readdir(backups);
    expect(others).toEqual([]);
    expect(file).toMatch(/^vpn-pglite-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.tar\.gz$/);
    const archive = join(backups, file ?? '');
    expect(backup.stdout).toContain(
      `and 1 uploaded files (${join(data, 'uploads')}) to ${archive}`,
    );
    expect(backup.stdout).toMatch(/\(\d+\.\d (KB|MB), \d+(\.\d)? m?s\)/);
    expect(backup.stdout).toContain(`not in this backup: ${join(data, 'app-secret')}`);
    expect((await stat(archive)).mode & 0o777).toBe(0o600);
    const { stdout: members } = await run('tar', ['--list', '--gzip', `--file=${archive}`]);
    expect(members.split('\n')).toEqual(
      expect.arrayContaining(['manifest.json', 'database.tar', 'uploads/avatars/a1.webp']),
    );
    expect(members).not.toContain('app-secret');

    const copy = join(root, 'restored');
    const restore = await command('restore', [archive], { DATA_DIR: copy });
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`into ${join(copy, 'db')} and 1 uploaded files`);
    expect(restore.stdout).toContain(`put the app secret back at ${join(copy, 'app-secret')}`);
    expect(await readFile(join(copy, 'uploads', 'avatars', 'a1.webp'))).toEqual(avatar);
    // Closed cleanly: the next backup of the copy is not refused as open.
    expect(await readdir(join(copy, 'db'))).not.toContain('postmaster.pid');
    const reopened = await PGlite.create(join(copy, 'db'));
    try {
      const { rows } = await reopened.query<{ email: string }>(
        'select email from orders order by id',
      );
      expect(rows.map((row) => row.email)).toEqual(['first@example.com', 'second@example.com']);
    } finally {
      await reopened.close();
    }

    const again = await command('restore', [archive], { DATA_DIR: copy });
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(
      `restore: ${join(copy, 'db')} is not empty: restore into a new DATA_DIR (or move the old one aside)`,
    );
  }, 60_000);

  it('fails on a bad setting with one line and no stack trace', async () => {
    const cases = [
      [command('backup', [], { DATA_DIR: 'memory://' }), /^backup: DATA_DIR is memory:\/\//],
      [
        command('backup', [], { DATABASE_URL: 'not a url' }),
        /^backup: Invalid configuration: DATABASE_URL/,
      ],
      [command('backup', ['--into', 'x'], { DATA_DIR: data }), /^backup: Unknown option '--into'/],
      [command('restore', [], { DATA_DIR: data }), /^restore: name one backup file/],
      [
        command('restore', [join(root, 'missing.tar.gz')], { DATA_DIR: join(root, 'fresh') }),
        /^restore: cannot read .*missing\.tar\.gz/,
      ],
    ] as const;
    for (const [outcome, message] of cases) {
      const { code, stderr } = await outcome;
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
    }
  }, 60_000);
});
