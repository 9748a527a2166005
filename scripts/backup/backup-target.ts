import { chmod, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { BackupError } from './backup-cli.ts';

// Where a backup file goes: `./backups/` unless `--out` names a folder or a file, under a
// name that sorts by time and says which kind of database it holds.

export const DEFAULT_BACKUP_DIR = './backups';

export type BackupKind = 'postgres' | 'pglite';

/** pg_dump's custom format, or our tarball of PGlite's data folder and the uploads. */
const EXTENSIONS: Record<BackupKind, string> = { postgres: 'dump', pglite: 'tar.gz' };

/** `vpn-postgres-2026-12-01T03-00-00Z.dump`: UTC, no colons (Windows shares, scp). */
export function backupFileName(kind: BackupKind, at = new Date()): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
  return `vpn-${kind}-${stamp}.${EXTENSIONS[kind]}`;
}

/**
 * The file a backup is written to: `out` itself, or a new file in it when it is an existing
 * folder or ends with a slash; the default folder without it. Never an existing file: a
 * backup does not overwrite another one.
 */
export async function backupFilePath(kind: BackupKind, out?: string): Promise<string> {
  const target = out ?? `${DEFAULT_BACKUP_DIR}/`;
  const isFolder =
    /[/\\]$/.test(target) || (await stat(target).catch(() => undefined))?.isDirectory() === true;
  const file = resolve(isFolder ? join(target, backupFileName(kind)) : target);
  if (await stat(file).catch(() => undefined)) {
    throw new BackupError(`${file} already exists; name another file or folder with --out`);
  }
  // Backups hold password hashes, sessions and customers' data: for their owner's eyes only.
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  return file;
}

/**
 * Writes through `write(partial)` to `file.partial` and renames it to `file` only once it
 * is whole, so a backup cut short (disk full, killed) never looks like a good one. Only its
 * owner may read it.
 */
export async function writeWhole(
  file: string,
  write: (partial: string) => Promise<void>,
): Promise<number> {
  const partial = `${file}.partial`;
  try {
    await write(partial);
    await chmod(partial, 0o600);
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return (await stat(file)).size;
}

/** The first `length` bytes of a backup file: what kind of backup it is. */
export async function fileStart(file: string, length: number): Promise<Buffer> {
  const handle = await open(file).catch((error: Error) => {
    throw new BackupError(`cannot read ${file}: ${error.message}`);
  });
  try {
    const head = Buffer.alloc(length);
    const { bytesRead } = await handle.read(head, 0, length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
