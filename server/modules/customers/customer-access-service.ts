import { and, count, desc, eq } from 'drizzle-orm';
import { CUSTOMER_MESSAGES as M } from '#shared/contracts/admin/customers.ts';
import { listPage, type PagingQuery, pageWindow } from '#shared/contracts/list.ts';
import { sessions } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { notFoundError } from '../../http/error-handler.ts';
import { DELETION_GRACE_MS } from '../account/profile-service.ts';
import { presentSession } from '../devices/devices-service.ts';
import { hashPassword } from '../identity/password.ts';
import { notifyPasswordChanged } from '../identity/password-changed-notice.ts';
import { deleteOtherSessions, liveSessionsOf } from '../identity/sessions.ts';
import { deleteRecoveryCodes } from '../identity/two-factor/recovery-codes.ts';
import { publishDevicesDeleted } from '../identity/user-events.ts';
import { findUser } from '../identity/user-rows.ts';
import {
  type Acting,
  type CustomersDeps,
  changeCustomer,
  confirmAdmin,
  notYourself,
  presentWithDevices,
  recordCustomerAction,
} from './customer-change.ts';

/**
 * §6 the admin's hold on an account's access: block, deactivate and restore, a new
 * password, two-factor off, its devices. Each takes the admin's own password where §7 names
 * one; a block or a new password signs every device out in the same transaction.
 */
export class CustomerAccessService {
  constructor(private readonly deps: CustomersDeps) {}

  async block(acting: Acting, id: number, blocked: boolean, password: string) {
    const target = await findUser(this.deps.db, id);
    await confirmAdmin(this.deps, acting, password);
    notYourself(acting, target);
    // Already so: nothing changes, nothing is recorded.
    if (blocked === (target.blockedAt !== null)) return presentWithDevices(this.deps, target);
    return changeCustomer(
      this.deps,
      acting,
      target,
      blocked ? 'customers.blocked' : 'customers.unblocked',
      { blockedAt: blocked ? new Date() : null },
      {
        extra: (tx) =>
          blocked ? deleteOtherSessions(tx, target.id, undefined) : Promise.resolve(undefined),
      },
    );
  }

  /** §4 deactivation on the customer's behalf: deleted after the grace period. */
  async deactivate(acting: Acting, id: number, password: string) {
    const target = await findUser(this.deps.db, id);
    await confirmAdmin(this.deps, acting, password);
    notYourself(acting, target);
    if (target.deleteAt) throw new AppError('conflict', { info: M.alreadyDeactivated });
    const deleteAt = new Date(Date.now() + DELETION_GRACE_MS);
    return changeCustomer(
      this.deps,
      acting,
      target,
      'customers.deactivated',
      { deleteAt },
      {
        data: { delete_at: deleteAt.toISOString() },
      },
    );
  }

  async reactivate(acting: Acting, id: number, password: string) {
    const target = await findUser(this.deps.db, id);
    await confirmAdmin(this.deps, acting, password);
    notYourself(acting, target);
    if (!target.deleteAt) throw new AppError('conflict', { info: M.notDeactivated });
    return changeCustomer(this.deps, acting, target, 'customers.reactivated', { deleteAt: null });
  }

  /** A new password: every session ends, and the owner is told by mail. */
  async updatePassword(
    acting: Acting,
    input: { user_id: number; password: string; current_password: string },
  ) {
    const target = await findUser(this.deps.db, input.user_id);
    await confirmAdmin(this.deps, acting, input.current_password, 'current_password');
    notYourself(acting, target);
    const passwordHash = await hashPassword(input.password);
    const saved = await changeCustomer(
      this.deps,
      acting,
      target,
      'customers.password_updated',
      { passwordHash },
      { extra: (tx) => deleteOtherSessions(tx, target.id, undefined) },
    );
    await notifyPasswordChanged(this.deps, target);
    return saved;
  }

  async disableTwoFactor(acting: Acting, id: number, password: string) {
    const target = await findUser(this.deps.db, id);
    await confirmAdmin(this.deps, acting, password);
    notYourself(acting, target);
    if (!target.twoFactorSecret) throw new AppError('conflict', { info: M.twoFactorNotEnabled });
    return changeCustomer(
      this.deps,
      acting,
      target,
      'customers.two_factor_disabled',
      { twoFactorSecret: null, twoFactorConfirmedAt: null, twoFactorLastStep: null },
      {
        extra: async (tx) => {
          await deleteRecoveryCodes(tx, target.id);
          return undefined;
        },
      },
    );
  }

  /** The customer's live sessions, the newest sign-in first. */
  async devices(id: number, paging: PagingQuery) {
    const target = await findUser(this.deps.db, id);
    const live = liveSessionsOf(target.id, this.deps.config);
    const { offset, limit } = pageWindow(paging);
    const [rows, [total]] = await Promise.all([
      this.deps.db
        .select()
        .from(sessions)
        .where(live)
        .orderBy(desc(sessions.createdAt), desc(sessions.id))
        .offset(offset)
        .limit(limit),
      this.deps.db.select({ n: count() }).from(sessions).where(live),
    ]);
    return listPage(rows.map(presentSession), paging, total?.n ?? 0);
  }

  /** Signs one device of the customer out; a device of someone else is not found. */
  async logoutDevice(acting: Acting, id: number, deviceId: string): Promise<void> {
    const target = await findUser(this.deps.db, id);
    await recordCustomerAction(
      this.deps,
      acting,
      target,
      'customers.device_logged_out',
      async (tx) => {
        const removed = await tx
          .delete(sessions)
          .where(and(eq(sessions.id, deviceId), eq(sessions.userId, target.id)))
          .returning({ id: sessions.id });
        if (removed.length === 0) throw notFoundError();
      },
      { device_id: deviceId },
    );
    void publishDevicesDeleted(this.deps, target.id, [deviceId]);
  }
}
