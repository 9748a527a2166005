import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { BackupError, type BackupReport, formatBytes, formatDuration } from './backup-cli.ts';
import { backupFilePath, fileStart, writeWhole } from './backup-target.ts';

// The embedded database (PGlite under $DATA_DIR/db) and the uploads folder, to and from one
// .tar.gz: `database.tar` (PGlite's own dumpDataDir, which loadDataDir takes back),
// `uploads/` and `manifest.json`. GNU tar packs it, so the uploads are streamed, not held.
//
// PGlite is one process's database and takes no lock: a second process opens a folder in
// use without a word, and the two would write over each other. PGlite writes
// `postmaster.pid` while it is open and removes it on a clean close, so its presence means
// the app is running, or stopped without closing the database; either way we refuse.

const exec = promisify(execFile);

const FORMAT = 'vpn-pglite-backup';
const OPEN_MARK = 'postmaster.pid';
/** The key behind sealed secrets (server/platform/crypto/app-key.ts): never in a backup. */
const APP_SECRET_FILE = 'app-secret';

interface Manifest {
  format: typeof FORMAT;
  version: 1;
  createdAt: string;
  /** PostgreSQL's major version inside PGlite (the data folder's PG_VERSION). */
  postgres: string;
  uploads: boolean;
}

export interface PgliteFolders {
  /** DATA_DIR: the database is in its `db` folder. */
  dataDir: string;
  /** UPLOADS_DIR (default `$DATA_DIR/uploads`). */
  uploadsDir: string;
  /** APP_SECRET is set, so no key file is expected in DATA_DIR. */
  appSecretSet: boolean;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

async function isEmptyOrMissing(folder: string): Promise<boolean> {
  const entries = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw new BackupError(`cannot read ${folder}: ${error.message}`);
  });
  return entries.length === 0;
}

async function tar(args: string[]): Promise<void> {
  try {
    await exec('tar', args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '');
    const line = stderr.split('\n').find((text) => text.trim()) ?? (error as Error).message;
    throw new BackupError(`tar failed: ${line.trim()}`);
  }
}

function checkFolder(folder: string, setting: string): void {
  if (folder.startsWith('memory://')) {
    throw new BackupError(`${setting} is memory://: that lives in one process only`);
  }
}

/** Removes what a failed restore put in `folder`, which was empty or missing before. */
async function emptyFolder(folder: string): Promise<void> {
  const entries = await readdir(folder).catch(() => [] as string[]);
  await Promise.all(
    entries.map((name) => rm(join(folder, name), { recursive: true, force: true })),
  );
}

async function countFiles(folder: string): Promise<number> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).length;
}

/** Where the key behind sealed secrets is, since the backup leaves it out on purpose. */
async function secretNotes(folders: PgliteFolders): Promise<string[]> {
  if (folders.appSecretSet) return ['not in this backup: APP_SECRET; keep it in your secret store'];
  const file = resolve(folders.dataDir, APP_SECRET_FILE);
  if (!(await exists(file))) return [];
  return [
    `not in this backup: ${file}, the key of the sealed secrets; keep a copy elsewhere ` +
      '(docs/operations/data-and-backups.md, "Backups and recovery")',
  ];
}

export interface PgliteBackup extends BackupReport {
  file: string;
  bytes: number;
  ms: number;
  uploadedFiles: number;
}

/** The stopped app's database and uploads into a new file (`backupFilePath`'s rules). */
export async function backupPglite(
  folders: PgliteFolders & { out?: string },
): Promise<PgliteBackup> {
  checkFolder(folders.dataDir, 'DATA_DIR');
  const dbDir = resolve(folders.dataDir, 'db');
  if (!(await exists(join(dbDir, 'PG_VERSION')))) {
    throw new BackupError(`no PGlite database in ${dbDir} (DATA_DIR=${folders.dataDir})`);
  }
  if (await exists(join(dbDir, OPEN_MARK))) {
    throw new BackupError(
      `the database in ${dbDir} is open (${OPEN_MARK}): stop the app first, since PGlite is ` +
        "one process's database; if it is stopped, it did not close cleanly: start it, " +
        'stop it, and back up again',
    );
  }
  const uploadsDir = folders.uploadsDir.startsWith('memory://')
    ? undefined
    : resolve(folders.uploadsDir);
  const withUploads =
    uploadsDir !== undefined &&
    (await stat(uploadsDir).catch(() => undefined))?.isDirectory() === true;
  const file = await backupFilePath('pglite', folders.out);
  const staging = await mkdtemp(join(dirname(file), '.vpn-backup-'));
  const started = performance.now();
  try {
    const pglite = await PGlite.create(dbDir);
    try {
      // Everything in the data files, so the copy needs no WAL replay to be whole.
      await pglite.exec('checkpoint');
      const dump = await pglite.dumpDataDir('none');
      await writeFile(join(staging, 'database.tar'), Buffer.from(await dump.arrayBuffer()));
    } finally {
      await pglite.close();
    }
    const manifest: Manifest = {
      format: FORMAT,
      version: 1,
      createdAt: new Date().toISOString(),
      postgres: (await readFile(join(dbDir, 'PG_VERSION'), 'utf8')).trim(),
      uploads: withUploads,
    };
    await writeFile(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const uploadedFiles = withUploads && uploadsDir ? await countFiles(uploadsDir) : 0;
    const bytes = await writeWhole(file, (partial) =>
      tar([
        '--create',
        '--gzip',
        `--file=${partial}`,
        `--directory=${staging}`,
        'manifest.json',
        'database.tar',
        ...(withUploads && uploadsDir
          ? [`--directory=${uploadsDir}`, '--transform=s,^\\.,uploads,S', '.']
          : []),
      ]),
    );
    const ms = performance.now() - started;
    return {
      file,
      bytes,
      ms,
      uploadedFiles,
      summary:
        `backed up the PGlite database ${dbDir}` +
        (withUploads ? ` and ${uploadedFiles} uploaded files (${uploadsDir})` : '') +
        ` to ${file} (${formatBytes(bytes)}, ${formatDuration(ms)})`,
      notes: [
        ...(withUploads ? [] : [`no uploads folder at ${folders.uploadsDir}: none backed up`]),
        ...(await secretNotes(folders)),
      ],
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function readManifest(file: string, staging: string): Promise<Manifest> {
  const head = await fileStart(file, 2);
  if (head[0] !== 0x1f || head[1] !== 0x8b) {
    throw new BackupError(
      `${file} is not a PGlite backup (a pg_dump archive restores with DATABASE_URL set)`,
    );
  }
  await tar([
    '--extract',
    '--gzip',
    `--file=${file}`,
    `--directory=${staging}`,
    'manifest.json',
    'database.tar',
  ]);
  const manifest = JSON.parse(await readFile(join(staging, 'manifest.json'), 'utf8')) as Manifest;
  if (manifest.format !== FORMAT || manifest.version !== 1) {
    throw new BackupError(`${file} is not a backup this version can restore (${manifest.format})`);
  }
  return manifest;
}

export interface PgliteRestore extends BackupReport {
  ms: number;
  uploadedFiles: number;
}

/** `file` into a new data folder: `$DATA_DIR/db` and the uploads folder must be empty. */
export async function restorePglite(
  folders: PgliteFolders & { file: string },
): Promise<PgliteRestore> {
  checkFolder(folders.dataDir, 'DATA_DIR');
  checkFolder(folders.uploadsDir, 'UPLOADS_DIR');
  const dataDir = resolve(folders.dataDir);
  const dbDir = join(dataDir, 'db');
  const uploadsDir = resolve(folders.uploadsDir);
  for (const [folder, setting] of [
    [dbDir, 'DATA_DIR'],
    [uploadsDir, 'UPLOADS_DIR'],
  ] as const) {
    if (!(await isEmptyOrMissing(folder))) {
      throw new BackupError(
        `${folder} is not empty: restore into a new ${setting} (or move the old one aside)`,
      );
    }
  }
  await mkdir(dataDir, { recursive: true });
  const staging = await mkdtemp(join(dataDir, '.vpn-restore-'));
  const started = performance.now();
  try {
    const manifest = await readManifest(folders.file, staging);
    const dump = new Blob([await readFile(join(staging, 'database.tar'))]);
    const pglite = await PGlite.create(dbDir, { loadDataDir: dump });
    // Opened and read once: the copy is a database, and its clean close removes the
    // open mark the backup's own open left in the folder.
    await pglite.query('select count(*) from pg_class').finally(() => pglite.close());
    let uploadedFiles = 0;
    if (manifest.uploads) {
      await mkdir(uploadsDir, { recursive: true });
      await tar([
        '--extract',
        '--gzip',
        `--file=${folders.file}`,
        `--directory=${uploadsDir}`,
        '--strip-components=1',
        'uploads',
      ]);
      uploadedFiles = await countFiles(uploadsDir);
    }
    const ms = performance.now() - started;
    const secretFile = join(dataDir, APP_SECRET_FILE);
    const secretMissing = !folders.appSecretSet && !(await exists(secretFile));
    return {
      ms,
      uploadedFiles,
      summary:
        `restored ${folders.file} (taken ${manifest.createdAt}) into ${dbDir}` +
        (manifest.uploads ? ` and ${uploadedFiles} uploaded files into ${uploadsDir}` : '') +
        ` (${formatDuration(ms)})`,
      notes: secretMissing
        ? [
            `put the app secret back at ${secretFile} (or set APP_SECRET) before starting: ` +
              'without it a new one is made and no sealed secret (two-factor seeds, saved ' +
              'gateway keys) can be opened',
          ]
        : [],
    };
  } catch (error) {
    // Nothing half-made stays behind to make the next attempt refuse.
    await emptyFolder(dbDir);
    await emptyFolder(uploadsDir);
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
