import { loadConfig, loadEnvFile } from '#server/config.ts';
import { readArguments, runCommand } from './backup-cli.ts';
import { backupPglite } from './pglite-backup.ts';
import { backupPostgres } from './postgres-backup.ts';

// `npm run backup [-- --out <folder/ or file>]`: the configured database (DATABASE_URL, or
// PGlite under DATA_DIR with the uploads; settings as the server reads them, .env included)
// into a new file, ./backups/ by default. docs/operations/data-and-backups.md, "Backups and recovery".
await runCommand('backup', async () => {
  const { values } = readArguments(
    { options: { out: { type: 'string' } } },
    'npm run backup [-- --out <folder/ or file>]',
  );
  loadEnvFile();
  const config = loadConfig();
  if (config.databaseUrl) return backupPostgres({ url: config.databaseUrl, out: values.out });
  return backupPglite({
    dataDir: config.dataDir,
    uploadsDir: config.uploadsDir,
    appSecretSet: config.appSecret !== undefined,
    out: values.out,
  });
});
