import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../modules/identity/password.ts';
import { startSilentServer } from '../test/silent-server.ts';
import { createTestDatabase } from '../test/test-database.ts';
import { CONNECT_TIMEOUT_MS, type DatabaseHandle, openDatabase, queryRows } from './client.ts';
import { migrateDatabase } from './migrate.ts';
import { auditLog, countries, users } from './schema/index.ts';
import { DEMO_ACCOUNTS, seedDemoData } from './seed.ts';

const database = await createTestDatabase();
const { db } = database;
afterAll(() => database.close());

describe('the migrated database', () => {
  it('is migrated once, and migrating again changes nothing', async () => {
    await migrateDatabase(database);
    const tables = await queryRows<{ table_name: string }>(
      db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`,
    );
    expect(tables.map((row) => row.table_name)).toEqual([
      'audit_log',
      'card_sources',
      'content_categories',
      'content_category_translations',
      'content_items',
      'content_media',
      'content_media_uses',
      'content_redirects',
      'content_revisions',
      'content_settings',
      'content_tags',
      'content_translation_tags',
      'content_translations',
      'countries',
      'coupon_holds',
      'coupon_products',
      'coupon_redemptions',
      'coupons',
      'data_exports',
      'entitlements',
      'family_groups',
      'family_members',
      'gateway_customers',
      'gateway_events',
      'gateway_prices',
      'gateway_settings',
      'help_article_vote_marks',
      'help_article_votes',
      'help_search_misses',
      'idempotency_keys',
      'invoice_counters',
      'invoice_lines',
      'invoices',
      'mail_outbox',
      'main_page_faqs',
      'main_page_seo',
      'notification_lists',
      'notification_sends',
      'notification_subscriptions',
      'oauth_accounts',
      'oauth_clients',
      'oauth_providers',
      'oidc_models',
      'oidc_signing_keys',
      'one_time_tokens',
      'passkey_challenges',
      'passkeys',
      'payments',
      'product_includes',
      'products',
      'referral_codes',
      'referrals',
      'refunds',
      'sandbox_objects',
      'sessions',
      'statistics_conversion_months',
      'statistics_daily_country_takings',
      'statistics_daily_takings',
      'statistics_mrr_months',
      'statistics_mrr_subscription_months',
      'statistics_subscription_starts',
      'subscription_items',
      'subscriptions',
      'two_factor_recovery_codes',
      'users',
      'vpn_accounts',
      'vpn_cities',
      'vpn_devices',
      'vpn_servers',
      'vpn_usage_periods',
    ]);
  });

  it('has every ISO 3166-1 country, named in the five languages', async () => {
    const all = await db.select().from(countries);
    expect(all).toHaveLength(249);
    const germany = all.find((country) => country.code === 'DE');
    expect(germany?.names).toEqual({
      en: 'Germany',
      es: 'Alemania',
      fr: 'Allemagne',
      nl: 'Duitsland',
      ru: 'Германия',
    });
  });

  it('seeds the demo accounts and customers once', async () => {
    expect(await seedDemoData(db)).toBe(true);
    expect(await seedDemoData(db)).toBe(false);
    const seeded = await db.select().from(users).orderBy(users.id);
    expect(seeded.slice(0, 3).map((user) => [user.role, user.email])).toEqual(
      DEMO_ACCOUNTS.map((account) => [account.role, account.email]),
    );
    const customers = seeded.slice(3);
    expect(customers.length).toBeGreaterThan(20);
    expect(customers.some((user) => user.blockedAt)).toBe(true);
    expect(customers.some((user) => user.deleteAt)).toBe(true);
    expect(customers.some((user) => !user.emailVerifiedAt)).toBe(true);
    const admin = seeded[0];
    expect(admin?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(admin?.passwordHash ?? '', DEMO_ACCOUNTS[0].password)).toBe(true);
    expect(await verifyPassword(admin?.passwordHash ?? '', 'wrong')).toBe(false);
  });

  it('keeps e-mail addresses and usernames unique, usernames case-insensitively', async () => {
    await expect(
      db.insert(users).values({ email: 'admin@example.com', username: 'someone' }),
    ).rejects.toThrow();
    await expect(
      db.insert(users).values({ email: 'x@example.com', username: 'ADMIN' }),
    ).rejects.toThrow();
  });

  it('keeps audit entries when their actor is deleted', async () => {
    const [user] = await db
      .insert(users)
      .values({ email: 'gone@example.com', username: 'gone' })
      .returning();
    await db
      .insert(auditLog)
      .values({ actorId: user?.id, action: 'auth.sign_in', ip: '127.0.0.1' });
    await db.delete(users).where(eq(users.id, user?.id ?? 0));
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, 'auth.sign_in'));
    expect(entry).toMatchObject({ actorId: null, ip: '127.0.0.1', data: {} });
  });
});

describe('seeding from processes that start together', () => {
  it('seeds one set, and none of them fails on the unique addresses', async () => {
    const empty = await createTestDatabase();
    // On PostgreSQL each "process" gets its own pool, as separate processes would; PGlite is
    // one process's database, so there the seeds run side by side on the one handle.
    const others: DatabaseHandle[] =
      empty.driver === 'postgres'
        ? await Promise.all(
            [1, 2].map(() => openDatabase({ url: empty.pool.options.connectionString })),
          )
        : [];
    const handles = empty.driver === 'postgres' ? [empty, ...others] : [empty, empty, empty];
    try {
      const seeded = await Promise.all(handles.map((handle) => seedDemoData(handle.db)));
      expect(seeded.filter(Boolean)).toHaveLength(1);
      const rows = await empty.db.select().from(users);
      const emails = rows.map((user) => user.email);
      expect(new Set(emails).size).toBe(emails.length);
      for (const account of DEMO_ACCOUNTS) expect(emails).toContain(account.email);
    } finally {
      await Promise.all(others.map((handle) => handle.close()));
      await empty.close();
    }
  });
});

describe('a PostgreSQL server that never answers', () => {
  it('fails a query once the connection timeout has passed, instead of waiting forever', async () => {
    const silent = await startSilentServer();
    const blackholed = await openDatabase({ url: silent.url, connectTimeoutMs: 300 });
    try {
      const started = performance.now();
      const failure = await blackholed.db.execute(sql`select 1`).catch((error: Error) => error);
      // Drizzle wraps the driver's error ("timeout exceeded when trying to connect").
      expect(String((failure as Error).cause)).toMatch(/timeout/i);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(silent.accepted()).toBe(1);
    } finally {
      await blackholed.close();
      await silent.close();
    }
  });

  it('has a connection timeout unless told otherwise', async () => {
    const handle = await openDatabase({ url: 'postgres://postgres@127.0.0.1:1/none' });
    expect(handle.driver === 'postgres' && handle.pool.options.connectionTimeoutMillis).toBe(
      CONNECT_TIMEOUT_MS,
    );
    await handle.close();
  });
});
