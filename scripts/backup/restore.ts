import { loadConfig, loadEnvFile } from '#server/config.ts';
import { BackupError, readArguments, runCommand } from './backup-cli.ts';
import { restorePglite } from './pglite-backup.ts';
import { restorePostgres } from './postgres-backup.ts';

// `npm run restore -- <file>`: a backup into the configured database, which must be empty:
// DATABASE_URL (a database that does not exist yet is created), or a new DATA_DIR and
// UPLOADS_DIR for PGlite. docs/operations/data-and-backups.md, "Backups and recovery".
const USAGE = 'npm run restore -- <backup file>';

await runCommand('restore', async () => {
  const { positionals } = readArguments({ options: {}, allowPositionals: true }, USAGE);
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new BackupError(`name one backup file (usage: ${USAGE})`);
  loadEnvFile();
  const config = loadConfig();
  if (config.databaseUrl) return restorePostgres({ url: config.databaseUrl, file });
  return restorePglite({
    file,
    dataDir: config.dataDir,
    uploadsDir: config.uploadsDir,
    appSecretSet: config.appSecret !== undefined,
  });
});
