import { createHash } from 'node:crypto';
import fastify from 'fastify';
import pg from 'pg';
import { testConfig } from '#server/config.ts';
import { failStartup, serve } from './serve.ts';

// The PostgreSQL baseline for get-auth-user: bare Fastify and a `pg` pool of the product's
// size running the product's session-and-user join (the very SQL drizzle sends for
// findSession, in array row mode, by token hash) on the same rows, and answering a user
// object of the same shape. No hooks, plugins, schemas or logger: the product's figure over
// this one is what everything around the query costs.

const url = process.env.BENCH_DATABASE_URL;
if (!url) failStartup(new Error('bare-pg needs BENCH_DATABASE_URL'));

// As server/db/client.ts opens it (its default of 10 connections).
const pool = new pg.Pool({
  connectionString: url,
  max: 10,
  connectionTimeoutMillis: 5_000,
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
});
pool.on('error', () => {});

const SESSION_COLUMNS = [
  'id',
  'user_id',
  'token_hash',
  'role',
  'ip',
  'user_agent',
  'created_at',
  'last_seen_at',
  'expires_at',
];
const USER_COLUMNS = [
  'id',
  'name',
  'username',
  'email',
  'email_tmp',
  'photo',
  'password_hash',
  'email_verified_at',
  'delete_at',
  'default_source',
  'two_factor_secret',
  'two_factor_confirmed_at',
  'two_factor_last_step',
  'country_id',
  'billing_address',
  'subscription_id',
  'role',
  'locale',
  'blocked_at',
  'created_at',
  'updated_at',
];
const FIND_SESSION =
  `select ${[
    ...SESSION_COLUMNS.map((c) => `"sessions"."${c}"`),
    ...USER_COLUMNS.map((c) => `"users"."${c}"`),
  ].join(', ')} ` +
  'from "sessions" inner join "users" on "users"."id" = "sessions"."user_id" ' +
  'where "sessions"."token_hash" = $1 limit $2';

const S = Object.fromEntries(SESSION_COLUMNS.map((c, i) => [c, i]));
const U = Object.fromEntries(USER_COLUMNS.map((c, i) => [c, SESSION_COLUMNS.length + i]));
type Row = unknown[];
const at = (row: Row, index: number | undefined) => row[index ?? -1];
const time = (value: unknown) => (value instanceof Date ? value.getTime() : Number.NaN);

// The product's rules (server/modules/identity/sessions.ts): idle, role-changed or expired
// sessions are deleted; lastSeenAt is written at most once a minute.
const SESSION_IDLE_MS = testConfig().sessionIdleMs;
const TOUCH_INTERVAL_MS = 60_000;

function tokenOf(cookie: string | undefined): string | undefined {
  for (const part of cookie?.split(';') ?? []) {
    const [name, value] = part.trim().split('=');
    if (name === 'sid' && value) return decodeURIComponent(value);
  }
  return undefined;
}

const app = fastify();
app.post('/users/get-auth-user', async (request, reply) => {
  const token = tokenOf(request.headers.cookie);
  if (!token) return reply.code(401).send({ code: 'unauthenticated' });
  const tokenHash = createHash('sha256').update(token).digest('hex');
  const { rows } = await pool.query<Row>({
    text: FIND_SESSION,
    values: [tokenHash, 1],
    rowMode: 'array',
  });
  const row = rows[0];
  if (!row) return reply.code(401).send({ code: 'unauthenticated' });
  const now = Date.now();
  const lastSeen = time(at(row, S.last_seen_at));
  if (
    now - lastSeen > SESSION_IDLE_MS ||
    at(row, S.role) !== at(row, U.role) ||
    time(at(row, S.expires_at)) <= now
  ) {
    await pool.query('delete from "sessions" where "id" = $1', [at(row, S.id)]);
    return reply.code(401).send({ code: 'unauthenticated' });
  }
  if (now - lastSeen > TOUCH_INTERVAL_MS) {
    await pool.query('update "sessions" set "last_seen_at" = now() where "id" = $1', [
      at(row, S.id),
    ]);
  }
  const deleteAt = at(row, U.delete_at);
  return {
    user: {
      id: at(row, U.id),
      name: at(row, U.name),
      username: at(row, U.username),
      email: at(row, U.email),
      email_tmp: at(row, U.email_tmp),
      photo: at(row, U.photo),
      activated: at(row, U.email_verified_at) !== null,
      delete_at: deleteAt instanceof Date ? deleteAt.toISOString() : null,
      default_source: at(row, U.default_source),
      two_factor_authentication: at(row, U.two_factor_secret) !== null,
      two_factor_authentication_confirmed: at(row, U.two_factor_confirmed_at) !== null,
      country_id: at(row, U.country_id),
      users_billing_address: at(row, U.billing_address),
      subscription_id: at(row, U.subscription_id),
      role: at(row, U.role),
      has_password: at(row, U.password_hash) !== null,
    },
  };
});
await serve(app, () => pool.end()).catch(failStartup);
