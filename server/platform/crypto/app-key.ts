import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.ts';

const KEY_FILE = 'app-secret';

/**
 * The key material behind secrets kept at rest. APP_SECRET when set (production, several
 * processes); else one generated on the first start and kept beside the embedded database,
 * so `npm start` needs no setup and a restart can still read what it wrote. An in-memory
 * data folder gets a key for this process only, like its database.
 */
export async function loadAppKey(config: Pick<Config, 'appSecret' | 'dataDir'>): Promise<string> {
  if (config.appSecret) return config.appSecret;
  if (config.dataDir.startsWith('memory://')) return randomBytes(32).toString('base64url');
  const file = path.join(config.dataDir, KEY_FILE);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(config.dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  // `wx` fails if another process wrote the file first; then theirs is the key.
  try {
    await writeFile(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readFile(file, 'utf8')).trim();
  }
}
