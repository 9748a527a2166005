import pg from 'pg';
import { BackupError, type BackupReport, formatBytes, formatDuration } from './backup-cli.ts';
import { backupFilePath, fileStart, writeWhole } from './backup-target.ts';
import {
  installedClients,
  libpqConnection,
  majorOf,
  type PgClient,
  pgDumpFor,
  pgRestoreFor,
  runClient,
} from './pg-client-tools.ts';

// The PostgreSQL database (DATABASE_URL) to and from one pg_dump archive in the custom
// format. pg_dump reads one snapshot, so a backup taken while the app serves holds exactly
// what had committed when it began. A restore goes into an empty database, or one it
// creates, in one transaction: it lands whole or not at all.

/**
 * Uploads and the key behind sealed secrets live outside the database
 * (docs/operations/data-and-backups.md).
 */
const NOT_IN_THE_DUMP =
  'not in this backup: the uploaded files (UPLOADS_DIR) and the app secret (APP_SECRET or ' +
  '$DATA_DIR/app-secret); back them up separately (docs/operations/data-and-backups.md, "Backups and recovery")';

/** A custom-format archive starts with these bytes. */
const ARCHIVE_MAGIC = 'PGDMP';

const UNDEFINED_DATABASE = '3D000';

interface Target {
  url: string;
  database: string;
  /** `host:port/database`, without credentials, for messages. */
  label: string;
}

function targetOf(url: string): Target {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'postgres';
  return { url, database, label: `${parsed.hostname}:${parsed.port || 5432}/${database}` };
}

async function connect(target: Target): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: target.url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  await client.connect();
  return client;
}

async function serverVersion(client: pg.Client): Promise<{ version: string; major: number }> {
  const { rows } = await client.query<{ server_version: string }>('show server_version');
  const version = rows[0]?.server_version.split(' ')[0] ?? '';
  return { version, major: majorOf(version) ?? 0 };
}

const unreachable = (target: Target, error: unknown) =>
  new BackupError(`cannot reach the database ${target.label}: ${(error as Error).message}`);

export interface PostgresBackup extends BackupReport {
  file: string;
  bytes: number;
  ms: number;
  client: PgClient;
}

/** pg_dump of the database at `url` into a new file (`backupFilePath`'s rules for `out`). */
export async function backupPostgres(options: {
  url: string;
  out?: string;
}): Promise<PostgresBackup> {
  const target = targetOf(options.url);
  const connection = await connect(target).catch((error) => {
    throw unreachable(target, error);
  });
  const server = await serverVersion(connection).finally(() => connection.end());
  const client = await pgDumpFor(server.major);
  const file = await backupFilePath('postgres', options.out);
  const { dbname, env } = libpqConnection(options.url);
  const started = performance.now();
  const bytes = await writeWhole(file, async (partial) => {
    await runClient(
      client,
      ['--format=custom', '--no-password', `--file=${partial}`, `--dbname=${dbname}`],
      env,
    );
  });
  const ms = performance.now() - started;
  return {
    file,
    bytes,
    ms,
    client,
    summary:
      `backed up PostgreSQL ${server.version} database ${target.label} to ${file} ` +
      `(${formatBytes(bytes)}, ${formatDuration(ms)}, ${client.tool} ${client.version})`,
    notes: [NOT_IN_THE_DUMP],
  };
}

/** What `pg_restore --list` says of the archive's origin. */
async function archiveOrigin(file: string): Promise<{ dumpedBy: number; dumpedFrom: number }> {
  const head = await fileStart(file, ARCHIVE_MAGIC.length);
  if (head.toString('latin1') !== ARCHIVE_MAGIC) {
    throw new BackupError(
      `${file} is not a pg_dump archive in the custom format (a PGlite backup restores ` +
        'with DATABASE_URL unset)',
    );
  }
  // The newest pg_restore reads every older archive's table of contents.
  const newest = (await installedClients('pg_restore')).at(-1);
  if (!newest) throw new BackupError('pg_restore is not installed (Debian: postgresql-client)');
  const listing = await runClient(newest, ['--list', file], {});
  const version = (label: string) =>
    majorOf(new RegExp(`${label} version: (\\S+)`).exec(listing)?.[1] ?? '') ?? 0;
  return { dumpedBy: version('Dumped by pg_dump'), dumpedFrom: version('Dumped from database') };
}

/** Tables, views and sequences outside PostgreSQL's own schemas, by schema. */
async function userRelations(client: pg.Client): Promise<{ schema: string; count: number }[]> {
  const { rows } = await client.query<{ schema: string; count: number }>(
    `select n.nspname as schema, count(*)::int as count
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
        and n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%'
      group by n.nspname order by n.nspname`,
  );
  return rows;
}

const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Connects to the target, creating it when it does not exist yet (through the server's
 * `postgres` database, as `createdb` does). Answers whether it was created.
 */
async function openTarget(target: Target): Promise<{ client: pg.Client; created: boolean }> {
  try {
    return { client: await connect(target), created: false };
  } catch (error) {
    if ((error as { code?: string }).code !== UNDEFINED_DATABASE) throw unreachable(target, error);
  }
  const maintenance = new URL(target.url);
  maintenance.pathname = '/postgres';
  const admin = await connect(targetOf(maintenance.toString())).catch((error) => {
    throw unreachable(target, error);
  });
  try {
    await admin.query(`create database ${quoteIdentifier(target.database)}`);
  } catch (error) {
    throw new BackupError(
      `cannot create the database ${target.label}: ${(error as Error).message}; create it ` +
        'empty (createdb) and restore again',
    );
  } finally {
    await admin.end();
  }
  return { client: await connect(target), created: true };
}

async function dropCreated(target: Target): Promise<void> {
  const maintenance = new URL(target.url);
  maintenance.pathname = '/postgres';
  const admin = await connect(targetOf(maintenance.toString())).catch(() => undefined);
  if (!admin) return;
  await admin
    .query(`drop database if exists ${quoteIdentifier(target.database)}`)
    .catch(() => {})
    .finally(() => admin.end());
}

export interface PostgresRestore extends BackupReport {
  created: boolean;
  ms: number;
  client: PgClient;
}

/**
 * Restores `file` into the database at `url`: created when missing, else it must hold no
 * tables. No `--clean` into a used one: pg_restore's fails on the job queue's partitioned
 * tables (it drops a partition's inherited key), and would leave whatever the archive does
 * not name; a new database, kept apart until it serves, is the safer way anyway.
 */
export async function restorePostgres(options: {
  url: string;
  file: string;
}): Promise<PostgresRestore> {
  const target = targetOf(options.url);
  const origin = await archiveOrigin(options.file);
  const { client: connection, created } = await openTarget(target);
  let server: { version: string; major: number };
  try {
    server = await serverVersion(connection);
    const relations = await userRelations(connection);
    const count = relations.reduce((sum, row) => sum + row.count, 0);
    if (count > 0) {
      throw new BackupError(
        `the database ${target.label} is not empty (${count} tables, views or sequences in ` +
          `${relations.map((row) => row.schema).join(', ')}): restore into a new database ` +
          '(name one that does not exist in DATABASE_URL and it is created), or drop this ' +
          'one first (dropdb), once nothing needs it',
      );
    }
  } finally {
    await connection.end();
  }
  const notes: string[] = [];
  if (origin.dumpedFrom > server.major) {
    notes.push(
      `the backup comes from PostgreSQL ${origin.dumpedFrom} and this server runs ` +
        `${server.major}: should the restore meet SQL the older server lacks, it fails whole`,
    );
  }
  const client = await pgRestoreFor(origin.dumpedBy, server.major);
  const { dbname, env } = libpqConnection(options.url);
  const started = performance.now();
  try {
    await runClient(
      client,
      [
        `--dbname=${dbname}`,
        '--no-password',
        // Objects belong to the role the app connects as, whoever owned them before.
        '--no-owner',
        '--no-privileges',
        '--single-transaction',
        '--exit-on-error',
        options.file,
      ],
      env,
    );
  } catch (error) {
    if (created) await dropCreated(target);
    throw error;
  }
  const ms = performance.now() - started;
  return {
    created,
    ms,
    client,
    summary:
      `restored ${options.file} into the ${created ? 'new ' : ''}PostgreSQL ${server.version} ` +
      `database ${target.label} (${formatDuration(ms)}, ${client.tool} ${client.version})`,
    notes: [
      ...notes,
      'put back the uploaded files and the app secret from their own backups before starting',
      'the app applies newer migrations when it starts (or: npm run db:migrate)',
    ],
  };
}
