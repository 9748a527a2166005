import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { testConfig } from '#server/config.ts';
import { openDatabase } from '#server/db/client.ts';
import { migrateDatabase } from '#server/db/migrate.ts';
import { invoices, payments, subscriptions } from '#server/db/schema/index.ts';
import { endpointClient } from '#server/test/api-client.ts';
import { openShop } from '#server/test/billing-kit.ts';
import { adminUrl, TEMPLATE_DATABASE, withDatabaseName } from '#server/test/postgres-urls.ts';
import { createTestApp, TEST_QUEUE_TIMINGS } from '#server/test/test-app.ts';
import { describeWithPostgres } from '#server/test/test-services.ts';
import { signedInUser, type TestSession } from '#server/test/test-sessions.ts';
import { until } from '#server/test/wait-until.ts';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { pgDumpFor } from './pg-client-tools.ts';
import { backupPostgres, restorePostgres } from './postgres-backup.ts';

describe('the PostgreSQL client for a server', () => {
  it('refuses a server newer than every pg_dump installed, naming the package to install', async () => {
    await expect(pgDumpFor(99)).rejects.toThrow(/PostgreSQL 99.*postgresql-client-99/);
  });
});

describeWithPostgres('a backup taken while customers order', (serverUrl) => {
  const folder = mkdtemp(join(tmpdir(), 'vpn-backup-'));
  const made: string[] = [];
  afterAll(async () => {
    await rm(await folder, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: adminUrl(serverUrl) });
    await admin.connect();
    for (const name of made) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  const newDatabaseUrl = () => {
    const name = `vpn_restored_${randomBytes(6).toString('hex')}`;
    made.push(name);
    return withDatabaseName(serverUrl, name);
  };

  it('restores every order answered before the dump began, into a new database that migrates and serves', async () => {
    const { app, database } = await createTestApp();
    if (database.driver !== 'postgres') throw new Error('expected the PostgreSQL test database');
    const liveUrl = String(database.pool.options.connectionString);
    const shop = await openShop(app);

    interface Order {
      buyer: TestSession;
      invoiceId: number;
      subscriptionId: number;
      startedAt: number;
      answeredAt: number;
    }
    // Orders answered 2xx. One that failed (a 500 from a deadlock, say) committed nothing, so
    // the backup owes it nothing; each still counts in `failures`.
    const orders: Order[] = [];
    const failures: string[] = [];
    let open = true;
    const customer = async () => {
      while (open) {
        const buyer = await signedInUser(app);
        const startedAt = performance.now();
        const answer = await shop.buy(buyer);
        const { invoice_id: invoiceId, subscription_id: subscriptionId } = answer.data;
        if (answer.status !== 200 || !invoiceId || !subscriptionId) {
          failures.push(`${answer.status} ${JSON.stringify(answer.data)}`);
          continue;
        }
        orders.push({ buyer, invoiceId, subscriptionId, startedAt, answeredAt: performance.now() });
      }
    };
    const customers = Array.from({ length: 6 }, customer);

    await until(() => orders.length >= 12, 'a dozen orders before the backup', 60_000);
    const dumpStartedAt = performance.now();
    const backup = await backupPostgres({ url: liveUrl, out: `${await folder}/` });
    const dumpEndedAt = performance.now();
    await until(
      () => orders.some((order) => order.startedAt > dumpEndedAt),
      'an order begun after the backup',
      30_000,
    );
    open = false;
    await Promise.all(customers);
    expect(failures.length).toBeLessThan(orders.length);

    const committed = orders.filter((order) => order.answeredAt < dumpStartedAt);
    const inFlight = orders.filter(
      (order) => order.startedAt < dumpEndedAt && order.answeredAt > dumpStartedAt,
    );
    const later = orders.filter((order) => order.startedAt > dumpEndedAt);
    // Orders were being placed while pg_dump ran: the backup was taken under load.
    expect(inFlight.length).toBeGreaterThan(0);
    expect(committed.length).toBeGreaterThanOrEqual(12);
    expect(backup.file).toMatch(/vpn-postgres-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.dump$/);
    expect((await stat(backup.file)).mode & 0o777).toBe(0o600);
    expect(backup.summary).toContain(backup.file);

    // The live database is not empty: a restore there is refused, and nothing is touched.
    await expect(restorePostgres({ url: liveUrl, file: backup.file })).rejects.toThrow(
      /is not empty .*restore into a new database/,
    );

    const restoredUrl = newDatabaseUrl();
    const restore = await restorePostgres({ url: restoredUrl, file: backup.file });
    expect(restore.created).toBe(true);
    const restored = await openDatabase({ url: restoredUrl, maxConnections: 4 });
    try {
      await migrateDatabase(restored);
      const invoiceIds = committed.map((order) => order.invoiceId);
      const foundInvoices = await restored.db
        .select({ id: invoices.id, status: invoices.status })
        .from(invoices)
        .where(inArray(invoices.id, invoiceIds));
      expect(foundInvoices.map((row) => row.id).sort()).toEqual([...invoiceIds].sort());
      expect(new Set(foundInvoices.map((row) => row.status))).toEqual(new Set(['paid']));
      const subscriptionIds = committed.map((order) => order.subscriptionId);
      const foundSubscriptions = await restored.db
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(inArray(subscriptions.id, subscriptionIds));
      expect(foundSubscriptions).toHaveLength(subscriptionIds.length);
      // What began after the dump ended is not there: this is the backup, not a later copy.
      const laterInvoices = await restored.db
        .select({ id: invoices.id })
        .from(invoices)
        .where(
          inArray(
            invoices.id,
            later.map((order) => order.invoiceId),
          ),
        );
      expect(laterInvoices).toEqual([]);

      // An app on the restored database serves a customer, still signed in, their order.
      const served = await buildApp(testConfig(), {
        database: restored,
        jobs: [],
        queue: TEST_QUEUE_TIMINGS,
      });
      await served.ready();
      try {
        // Each payment is recorded by the sandbox's webhook, a durable job: one not yet
        // delivered when the dump began was in the dump's queue, and is delivered now.
        const succeeded = async () => {
          const rows = await restored.db
            .select({ invoiceId: payments.invoiceId })
            .from(payments)
            .where(and(inArray(payments.invoiceId, invoiceIds), eq(payments.status, 'succeeded')));
          return new Set(rows.map((row) => row.invoiceId)).size === invoiceIds.length;
        };
        await until(succeeded, 'a succeeded payment for every order', 30_000);
        const [first] = committed;
        const answer = await endpointClient(served)(billingEndpoints.invoices, {
          cookie: first?.buyer.cookie,
        });
        expect(answer.status).toBe(200);
        expect(answer.data.items.map((item) => item.invoice_id)).toEqual([first?.invoiceId]);
      } finally {
        await served.close();
      }
    } finally {
      await restored.close();
    }
  }, 180_000);

  const databaseExists = async (url: string) => {
    const admin = new pg.Client({ connectionString: adminUrl(serverUrl) });
    await admin.connect();
    const { rows } = await admin
      .query('select 1 from pg_database where datname = $1', [new URL(url).pathname.slice(1)])
      .finally(() => admin.end());
    return rows.length > 0;
  };

  it('refuses a file that is no archive before it creates any database', async () => {
    const url = newDatabaseUrl();
    const broken = join(await folder, 'broken.dump');
    await writeFile(broken, 'PGDMP but nothing after');
    await expect(restorePostgres({ url, file: broken })).rejects.toThrow(/pg_restore .* failed/);
    expect(await databaseExists(url)).toBe(false);
  });

  it('restores a cut-short archive not at all, and drops the database it created for it', async () => {
    const whole = await backupPostgres({
      url: withDatabaseName(serverUrl, TEMPLATE_DATABASE),
      out: `${await folder}/`,
    });
    // Its table of contents comes first, so it still lists; the data stops halfway.
    const cut = join(await folder, 'cut.dump');
    const bytes = await readFile(whole.file);
    await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const url = newDatabaseUrl();
    await expect(restorePostgres({ url, file: cut })).rejects.toThrow(/pg_restore .* failed/);
    expect(await databaseExists(url)).toBe(false);
  });
});
