import { count, sql } from 'drizzle-orm';
import { hashPassword } from '../modules/identity/password.ts';
import type { Database } from './client.ts';
import { countries, users } from './schema/index.ts';

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

export const DEMO_COUNTRIES = [
  { code: 'NL', name: 'Netherlands' },
  { code: 'DE', name: 'Germany' },
  { code: 'US', name: 'United States' },
  { code: 'GB', name: 'United Kingdom' },
  { code: 'JP', name: 'Japan' },
  { code: 'ES', name: 'Spain' },
];

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
    await tx.insert(countries).values(DEMO_COUNTRIES).onConflictDoNothing();
    await tx.insert(users).values(demoUsers);
    return true;
  });
}
