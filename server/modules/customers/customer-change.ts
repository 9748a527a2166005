import { asc, count, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuditAction } from '#shared/audit-actions.ts';
import { type CustomerDetail, CUSTOMER_MESSAGES as M } from '#shared/contracts/admin/customers.ts';
import { FIELD_IS_REQUIRED } from '#shared/validation/zod-messages.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { sessions, type UserRow, users } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { checkPassword } from '../identity/password-check.ts';
import { type ActiveSession, liveSessionsOf } from '../identity/sessions.ts';
import { publishDevicesDeleted, publishUserUpdated } from '../identity/user-events.ts';
import { updateUser } from '../identity/user-rows.ts';
import { presentCustomer } from './customer-presenter.ts';

// One way for an admin to change an account (§6): who acts, the checks they pass, the change
// and its audit row in one transaction, the customer's pages told after the commit.

/** What changing customers needs. */
export interface CustomersDeps {
  db: Database;
  config: Pick<Config, 'defaultLocale' | 'sessionIdleMs'>;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  realtime: Realtime;
}

/** The acting admin and their request. */
export interface Acting {
  request: FastifyRequest;
  actor: ActiveSession;
}

/** The account with its live device count, as the customer page shows it. */
export async function presentWithDevices(
  deps: CustomersDeps,
  user: UserRow,
): Promise<CustomerDetail> {
  const [devices] = await deps.db
    .select({ n: count() })
    .from(sessions)
    .where(liveSessionsOf(user.id, deps.config));
  return presentCustomer(user, devices?.n ?? 0);
}

/** An audit row of the admin acting on the account, in `db` (the change's transaction). */
export function auditCustomer(
  db: Database,
  { request, actor }: Acting,
  action: AuditAction,
  target: Pick<UserRow, 'id'>,
  data?: Record<string, unknown>,
) {
  return recordAudit(db, request, {
    action,
    actorId: actor.user.id,
    subjectType: 'user',
    subjectId: target.id,
    data,
  });
}

/** The acting admin's own password, where §7 names one; a wrong one changes nothing. */
export function confirmAdmin(
  deps: CustomersDeps,
  { request, actor }: Acting,
  password: string | undefined,
  field = 'password',
): Promise<void> {
  if (password === undefined) throw AppError.field(field, FIELD_IS_REQUIRED);
  return checkPassword(deps, request, actor.user, password, field);
}

/** Staff change their own account in its own settings, never here (no self-lockout). */
export function notYourself({ actor }: Acting, target: Pick<UserRow, 'id'>): void {
  if (actor.user.id === target.id) throw new AppError('conflict', { info: M.notYourself });
}

/**
 * Locks the admin's and the account's rows, in id order so that two admins acting on each
 * other queue up instead of deadlocking, and checks the admin still stands: of two admins
 * blocking each other at once, the second finds themselves blocked and changes nothing.
 */
async function actorStillActive(tx: Database, { actor }: Acting, target: Pick<UserRow, 'id'>) {
  const rows = await tx
    .select({ id: users.id, blockedAt: users.blockedAt, deleteAt: users.deleteAt })
    .from(users)
    .where(inArray(users.id, [actor.user.id, target.id]))
    .orderBy(asc(users.id))
    .for('update');
  const me = rows.find((row) => row.id === actor.user.id);
  if (!me || me.blockedAt || me.deleteAt) throw new AppError('forbidden');
}

export interface ChangeOptions {
  data?: Record<string, unknown>;
  /** More of the change, in its transaction; answers the sessions it ended, if any. */
  extra?: (tx: Database) => Promise<string[] | undefined>;
}

/**
 * Applies `values` to the account and records `action` in one transaction, then tells the
 * customer's pages: the account changed, and which of its sessions ended.
 */
export async function changeCustomer(
  deps: CustomersDeps,
  acting: Acting,
  target: UserRow,
  action: AuditAction,
  values: Partial<typeof users.$inferInsert>,
  options: ChangeOptions = {},
): Promise<CustomerDetail> {
  const { updated, ended } = await deps.db.transaction(async (tx) => {
    await actorStillActive(tx, acting, target);
    const row = await updateUser(tx, target.id, values);
    const endedSessions = (await options.extra?.(tx)) ?? [];
    await auditCustomer(tx, acting, action, target, options.data);
    return { updated: row, ended: endedSessions };
  });
  if (ended.length > 0) void publishDevicesDeleted(deps, target.id, ended);
  void publishUserUpdated(deps, updated);
  return presentWithDevices(deps, updated);
}

/** Records `action` with what `work` does in one transaction, for changes beside the row. */
export async function recordCustomerAction<T>(
  deps: CustomersDeps,
  acting: Acting,
  target: UserRow,
  action: AuditAction,
  work: (tx: Database) => Promise<T>,
  data?: Record<string, unknown>,
): Promise<T> {
  const done = await deps.db.transaction(async (tx) => {
    await actorStillActive(tx, acting, target);
    const result = await work(tx);
    await auditCustomer(tx, acting, action, target, data);
    return result;
  });
  void publishUserUpdated(deps, target);
  return done;
}
