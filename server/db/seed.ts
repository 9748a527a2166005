import { count, sql } from 'drizzle-orm';
import { seedDemoCatalog } from '../modules/billing/demo-catalog.ts';
import { hashPassword } from '../modules/identity/password.ts';
import type { Database } from './client.ts';
import { auditLog, countries, users } from './schema/index.ts';

// Demo data for the embedded default, written once into an empty database. The passwords
// are public (README, start-up log): never enable SEED_DEMO on a production database.
export const DEMO_ACCOUNTS = [
  {
    role: 'ADMIN',
    email: 'admin@example.com',
    username: 'admin',
    name: 'Ada Admin',
    password: 'Admin#2024pass',
  },
  {
    role: 'AUTHOR',
    email: 'author@example.com',
    username: 'author',
    name: 'Arthur Author',
    password: 'Author#2024pass',
  },
  {
    role: 'USER',
    email: 'customer@example.com',
    username: 'customer',
    name: 'Casey Customer',
    password: 'Customer#2024pass',
  },
] as const;

/**
 * Customers for the admin's screens to show: no password (nobody signs in as them), a mix
 * of the states staff filter by, joined over the last weeks.
 */
const FIRST_NAMES = ['Mia', 'Noah', 'Lena', 'Omar', 'Sofia', 'Luca', 'Anna', 'Ivan', 'Zoe', 'Hugo'];
const LAST_NAMES = ['Jansen', 'García', 'Martin', 'Petrov', 'Smith', 'Rossi', 'Dubois'];
const DEMO_CUSTOMER_COUNT = 36;
const DAY_MS = 86_400_000;

function demoCustomers(now: number, countryIds: ReadonlyMap<string, number>) {
  const countriesCycle = ['NL', 'DE', 'US', 'GB', 'ES', 'FR', 'RU'];
  return Array.from({ length: DEMO_CUSTOMER_COUNT }, (_, index) => {
    const first = FIRST_NAMES[index % FIRST_NAMES.length] ?? 'Demo';
    const last = LAST_NAMES[index % LAST_NAMES.length] ?? 'Customer';
    const handle = `${first}.${last}.${index + 1}`
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^a-z0-9.]/g, '');
    const joined = new Date(now - (DEMO_CUSTOMER_COUNT - index) * DAY_MS * 1.5);
    return {
      role: 'USER' as const,
      email: `${handle}@example.net`,
      username: handle.replaceAll('.', '_'),
      name: `${first} ${last}`,
      emailVerifiedAt: index % 5 === 4 ? null : joined,
      blockedAt: index % 11 === 7 ? new Date(now - 2 * DAY_MS) : null,
      deleteAt: index % 13 === 9 ? new Date(now + 20 * DAY_MS) : null,
      countryId: countryIds.get(countriesCycle[index % countriesCycle.length] ?? 'NL') ?? null,
      locale: (['en', 'es', 'fr', 'nl', 'ru'] as const)[index % 5],
      createdAt: joined,
    };
  });
}

/** Beside the migrations' lock (migrate.ts); any number nobody else takes. */
const SEED_LOCK_ID = 72_616_002;

async function hasUsers(db: Pick<Database, 'select'>): Promise<boolean> {
  const [existing] = await db.select({ n: count() }).from(users);
  return (existing?.n ?? 0) > 0;
}

/** Seeds an empty database; returns false when there were users already. */
export async function seedDemoData(db: Database): Promise<boolean> {
  // Every start after the first ends here, without hashing three passwords.
  if (await hasUsers(db)) return false;
  const verifiedAt = new Date();
  const demoUsers = await Promise.all(
    DEMO_ACCOUNTS.map(async ({ password, ...account }) => ({
      ...account,
      passwordHash: await hashPassword(password),
      emailVerifiedAt: verifiedAt,
    })),
  );
  return db.transaction(async (tx) => {
    // Processes started together on an empty database all get this far: the lock lets one
    // seed while the others wait, and then they find its users and leave them be. Without
    // it the second insert would fail on the unique e-mail and stop that process.
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_ID})`);
    if (await hasUsers(tx)) return false;
    // Countries are reference data, there from the migrations on.
    const countryRows = await tx.select({ id: countries.id, code: countries.code }).from(countries);
    const countryIds = new Map(countryRows.map((row) => [row.code, row.id]));
    const accounts = await tx
      .insert(users)
      .values(demoUsers.map((user) => ({ ...user, countryId: countryIds.get('NL') ?? null })))
      .returning({ id: users.id, createdAt: users.createdAt });
    const customers = await tx
      .insert(users)
      .values(demoCustomers(Date.now(), countryIds))
      .returning({ id: users.id, createdAt: users.createdAt });
    await seedDemoCatalog(tx);
    await tx.insert(auditLog).values(
      [...accounts, ...customers].map((customer) => ({
        action: 'auth.signed_up',
        actorId: customer.id,
        subjectType: 'user',
        subjectId: String(customer.id),
        ip: '203.0.113.10',
        userAgent: 'Mozilla/5.0 (demo data)',
        createdAt: customer.createdAt,
      })),
    );
    return true;
  });
}
