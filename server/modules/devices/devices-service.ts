import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { ACCOUNT_MESSAGES, type Device, type DevicesResponse } from '#shared/contracts/account.ts';
import { listPage, type PagingQuery, pageWindow } from '#shared/contracts/list.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { type SessionRow, sessions, type UserRow } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { type AuditAction, recordOwnAction } from '../audit/audit-log.ts';
import { checkPassword } from '../identity/password-check.ts';
import { deleteOtherSessions, liveSessionsOf } from '../identity/sessions.ts';
import { publishDevicesDeleted } from '../identity/user-events.ts';

/** A session as staff see it (§7 /users/devices); the token hash never leaves the server. */
export function presentSession(session: SessionRow): Omit<Device, 'isCurrent'> {
  return {
    id: session.id,
    ip: session.ip,
    user_agent: session.userAgent,
    last_login_at: session.createdAt.toISOString(),
  };
}

/** §3 Device: a session as its owner sees it, marked when it is the one asking. */
export function presentDevice(session: SessionRow, currentId: string): Device {
  return { ...presentSession(session), isCurrent: session.id === currentId };
}

/** What the devices service needs: the password check's limit, the sign-out events. */
export interface DevicesDeps {
  db: Database;
  config: Pick<Config, 'sessionIdleMs'>;
  rateLimiter: RateLimiter;
  realtime: Realtime;
}

/**
 * §4 Devices: the user's signed-in browsers, each revocable after the password (§5). Sessions
 * end in the transaction of their audit row; the pages hear of it once it is committed.
 */
export class DevicesService {
  constructor(private readonly deps: DevicesDeps) {}

  private get db() {
    return this.deps.db;
  }

  /** `db` is the transaction of the change recorded. */
  private audit(
    db: Database,
    request: FastifyRequest,
    action: AuditAction,
    user: UserRow,
    data?: Record<string, unknown>,
  ) {
    return recordOwnAction(db, request, action, user, data);
  }

  /**
   * One page of the live sessions: the current one first (§4, so at the top of page 1), then
   * the newest sign-in.
   */
  async list(user: UserRow, currentId: string, paging: PagingQuery): Promise<DevicesResponse> {
    const live = liveSessionsOf(user.id, this.deps.config);
    const { offset, limit } = pageWindow(paging);
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(sessions)
        .where(live)
        .orderBy(desc(sql`${sessions.id} = ${currentId}`), desc(sessions.createdAt), sessions.id)
        .limit(limit)
        .offset(offset),
      this.db.select({ value: count() }).from(sessions).where(live),
    ]);
    const items = rows.map((row) => presentDevice(row, currentId));
    return listPage(items, paging, total?.value ?? 0);
  }

  /** Ends one of the user's sessions; another user's id is as unknown as a made-up one. */
  async logOutDevice(
    request: FastifyRequest,
    user: UserRow,
    password: string,
    deviceId: string,
  ): Promise<void> {
    await checkPassword(this.deps, request, user, password);
    await this.db.transaction(async (tx) => {
      const removed = await tx
        .delete(sessions)
        .where(and(eq(sessions.id, deviceId), eq(sessions.userId, user.id)))
        .returning({ id: sessions.id });
      if (removed.length === 0) {
        throw new AppError('not_found', { info: ACCOUNT_MESSAGES.deviceNotFound });
      }
      await this.audit(tx, request, 'account.device_logged_out', user, { device_id: deviceId });
    });
    void publishDevicesDeleted(this.deps, user.id, [deviceId]);
  }

  async logOutOtherDevices(
    request: FastifyRequest,
    user: UserRow,
    password: string,
    currentId: string,
  ): Promise<void> {
    await checkPassword(this.deps, request, user, password);
    const ended = await this.db.transaction(async (tx) => {
      const sessionIds = await deleteOtherSessions(tx, user.id, currentId);
      await this.audit(tx, request, 'account.other_devices_logged_out', user);
      return sessionIds;
    });
    void publishDevicesDeleted(this.deps, user.id, ended);
  }

  async logOutAllDevices(request: FastifyRequest, user: UserRow, password: string): Promise<void> {
    await checkPassword(this.deps, request, user, password);
    const ended = await this.db.transaction(async (tx) => {
      const sessionIds = await deleteOtherSessions(tx, user.id, undefined);
      await this.audit(tx, request, 'account.all_devices_logged_out', user);
      return sessionIds;
    });
    void publishDevicesDeleted(this.deps, user.id, ended);
  }
}
