import { count } from 'drizzle-orm';
import { hashPassword } from '../modules/auth/password.ts';
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

/** Seeds an empty database; returns false when there were users already. */
export async function seedDemoData(db: Database): Promise<boolean> {
  const [existing] = await db.select({ n: count() }).from(users);
  if ((existing?.n ?? 0) > 0) return false;
  await db.transaction(async (tx) => {
    await tx.insert(countries).values(DEMO_COUNTRIES).onConflictDoNothing();
    const verifiedAt = new Date();
    for (const account of DEMO_ACCOUNTS) {
      await tx.insert(users).values({
        role: account.role,
        email: account.email,
        username: account.username,
        name: account.name,
        passwordHash: await hashPassword(account.password),
        emailVerifiedAt: verifiedAt,
      });
    }
  });
  return true;
}
