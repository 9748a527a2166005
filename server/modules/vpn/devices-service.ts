import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuditAction } from '#shared/audit-actions.ts';
import {
  type DevicesResponse,
  type DeviceWithConfig,
  VPN_MESSAGES as M,
} from '#shared/contracts/vpn.ts';
import type { Lang } from '#shared/locales.ts';
import { FASTEST } from '#shared/vpn/fleet-rules.ts';
import { usagePeriod } from '#shared/vpn/usage-period.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolationOf, retryOnDeadlock } from '../../db/errors.ts';
import { countries, users, vpnAccounts, vpnDevices, vpnServers } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { revokeGrant } from '../oidc/grants.ts';
import { configPartsOf, presentDevice } from './device-presenter.ts';
import { ownDevice, selectDevices } from './device-rows.ts';
import { candidates, choose, freeHost } from './placement.ts';
import {
  accountState,
  afterSync,
  bumpPeers,
  type SyncResult,
  syncAccountIn,
} from './vpn-access.ts';
import type { VpnContext } from './vpn-context.ts';

/** Who acts: the device's owner (or staff, `actorId`, on the customer's page). */
export interface Acting {
  request: Pick<FastifyRequest, 'ip' | 'headers'>;
  userId: number;
  actorId?: number;
}

/** What a change did: its device, the servers whose peers it changed, and its audit row. */
interface Change {
  deviceId: number;
  servers: number[];
  audit: [AuditAction, Record<string, unknown>];
}

/** The customer's hint of where they are, for `fastest`: their country, or their browser's. */
export interface Whereabouts {
  /** An ISO country code from the Accept-Language region (`nl-NL` → NL), if any. */
  browserCountry: string | null;
}

/** `nl-NL,nl;q=0.9` → NL: the first language tag with a region. */
export function countryFromLanguages(header: string | undefined): string | null {
  for (const part of (header ?? '').split(',')) {
    const region = /^[a-z]{2,3}-([A-Za-z]{2})\b/.exec(part.trim())?.[1];
    if (region) return region.toUpperCase();
  }
  return null;
}

/**
 * A customer's WireGuard devices (§2 download). Every change takes the person's VPN account
 * row lock first (syncAccountIn), so the device limit cannot be passed by two requests at
 * once, and ends with the blocks worked out again and the servers concerned bumped.
 */
export class DevicesService {
  constructor(private readonly ctx: VpnContext) {}

  /** The devices, the plan's limit, access and the period's traffic, as the page shows them. */
  async list(userId: number, lang?: Lang): Promise<DevicesResponse> {
    const { db } = this.ctx;
    const now = this.ctx.now();
    const [rows, state, [account]] = await Promise.all([
      selectDevices(db, eq(vpnDevices.userId, userId), lang),
      accountState(db, userId, now),
      db.select().from(vpnAccounts).where(eq(vpnAccounts.userId, userId)),
    ]);
    // Before the first device, or after a period ended that the sweep has not yet rolled.
    const current = account && now < account.periodEnd;
    const period = current
      ? { start: account.periodStart, end: account.periodEnd }
      : usagePeriod(now, state.subscriptionPeriod);
    const used = current ? account.periodRx + account.periodTx : 0;
    return {
      items: rows.map(presentDevice),
      device_limit: state.deviceLimit,
      access: {
        active: state.access,
        until: state.accessUntil?.toISOString() ?? null,
        blocked: state.blocked,
      },
      usage: {
        period_start: period.start.toISOString(),
        period_end: period.end.toISOString(),
        used_bytes: used,
        limit_bytes: state.limitBytes,
        limit_reached: state.limitBytes !== null && used >= state.limitBytes,
      },
    };
  }

  /** Whether the person may add a device now: access, and the plan's slots in use. */
  async slots(userId: number): Promise<{ access: boolean; devices: number; deviceLimit: number }> {
    const { db } = this.ctx;
    const [state, [counted]] = await Promise.all([
      accountState(db, userId, this.ctx.now()),
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(vpnDevices)
        .where(eq(vpnDevices.userId, userId)),
    ]);
    return {
      access: state.access && !state.blocked,
      devices: counted?.n ?? 0,
      deviceLimit: state.deviceLimit,
    };
  }

  async config(userId: number, deviceId: number): Promise<DeviceWithConfig> {
    return this.answer(userId, deviceId);
  }

  /** `oauthGrantId`: an app of ours adds it with its token (removing either ends both). */
  async create(
    { request, userId }: Acting,
    input: { name: string; location: string; public_key: string },
    where: Whereabouts,
    oauthGrantId: string | null = null,
  ): Promise<DeviceWithConfig> {
    const id = await this.change({ request, userId }, async (tx, sync) => {
      if (sync.state.blocked || !sync.state.access) {
        throw new AppError('forbidden', { info: M.noAccess });
      }
      if (sync.devices >= sync.state.deviceLimit) {
        throw new AppError('conflict', { info: M.deviceLimit });
      }
      await this.keyIsFree(tx, input.public_key);
      await this.nameIsFree(tx, userId, input.name, null);
      const placed = await this.place(tx, userId, input.location, where, null);
      const [device] = await tx
        .insert(vpnDevices)
        .values({
          userId,
          name: input.name,
          publicKey: input.public_key,
          location: input.location,
          serverId: placed.serverId,
          host: placed.host,
          oauthGrantId,
        })
        .returning({ id: vpnDevices.id });
      if (!device) throw new Error('device not inserted');
      return {
        deviceId: device.id,
        servers: [placed.serverId],
        audit: ['vpn.device_added', { name: input.name, location: input.location }],
      };
    });
    return this.answer(userId, id);
  }

  async rename(userId: number, deviceId: number, name: string) {
    await this.ctx.db.transaction(async (tx) => {
      // Under the account's lock, as every change of the person's devices.
      await tx
        .select({ id: vpnAccounts.userId })
        .from(vpnAccounts)
        .where(eq(vpnAccounts.userId, userId))
        .for('update');
      await this.nameIsFree(tx, userId, name, deviceId);
      const [updated] = await tx
        .update(vpnDevices)
        .set({ name })
        .where(and(eq(vpnDevices.userId, userId), eq(vpnDevices.id, deviceId)))
        .returning({ id: vpnDevices.id });
      if (!updated) throw new AppError('not_found');
    });
    return { device: (await this.answer(userId, deviceId)).device };
  }

  /** Names tell a person's devices (and their downloaded files) apart: one each. */
  private async nameIsFree(
    tx: Database,
    userId: number,
    name: string,
    except: number | null,
  ): Promise<void> {
    const same = await tx
      .select({ id: vpnDevices.id })
      .from(vpnDevices)
      .where(and(eq(vpnDevices.userId, userId), sql`lower(${vpnDevices.name}) = lower(${name})`));
    if (same.some((device) => device.id !== except)) throw AppError.field('name', M.nameTaken);
  }

  /** A new key for the same place: the old key stops working in the same step. */
  async rekey(acting: Acting, deviceId: number, publicKey: string): Promise<DeviceWithConfig> {
    const { userId } = acting;
    await this.change(acting, async (tx) => {
      const device = await this.lockDevice(tx, userId, deviceId);
      if (device.publicKey !== publicKey) await this.keyIsFree(tx, publicKey);
      await tx
        .update(vpnDevices)
        .set({ publicKey, configChangedAt: null })
        .where(eq(vpnDevices.id, deviceId));
      return {
        deviceId,
        servers: device.serverId === null ? [] : [device.serverId],
        audit: ['vpn.device_rekeyed', { name: device.name }],
      };
    });
    return this.answer(userId, deviceId);
  }

  /**
   * To another location (with a new key when one is given, so the page can show a complete
   * configuration): its lightest server there, unless the one it has is there and takes it.
   */
  async move(
    acting: Acting,
    input: { device_id: number; location: string; public_key?: string | undefined },
    where: Whereabouts,
  ): Promise<DeviceWithConfig> {
    const { userId } = acting;
    await this.change(acting, async (tx) => {
      const device = await this.lockDevice(tx, userId, input.device_id);
      if (input.public_key && input.public_key !== device.publicKey) {
        await this.keyIsFree(tx, input.public_key);
      }
      const placed = await this.place(tx, userId, input.location, where, device);
      const moved = placed.serverId !== device.serverId;
      await tx
        .update(vpnDevices)
        .set({
          location: input.location,
          serverId: placed.serverId,
          host: placed.host,
          ...(moved ? { previousServerId: device.serverId } : {}),
          ...(input.public_key
            ? { publicKey: input.public_key, configChangedAt: null }
            : moved
              ? { configChangedAt: this.ctx.now() }
              : {}),
        })
        .where(eq(vpnDevices.id, device.id));
      const servers = [placed.serverId, ...(device.serverId === null ? [] : [device.serverId])];
      return {
        deviceId: device.id,
        servers,
        audit: [
          'vpn.device_moved',
          { name: device.name, location: input.location, rekeyed: !!input.public_key },
        ],
      };
    });
    return this.answer(userId, input.device_id);
  }

  /** Removes a device; `action` names who did it (the customer, or staff on their page). */
  async delete(
    acting: Acting,
    deviceId: number,
    action: 'vpn.device_removed' | 'customers.vpn_device_removed' = 'vpn.device_removed',
  ): Promise<void> {
    const { userId } = acting;
    await this.change(acting, async (tx) => {
      const device = await this.lockDevice(tx, userId, deviceId);
      await tx.delete(vpnDevices).where(eq(vpnDevices.id, deviceId));
      // The app that made it is signed out with it.
      if (device.oauthGrantId) await revokeGrant(tx, device.oauthGrantId);
      return {
        deviceId,
        servers: device.serverId === null ? [] : [device.serverId],
        audit: [action, { name: device.name, public_key: device.publicKey }],
      };
    });
  }

  /**
   * Runs `work` under the person's account lock, between two syncs: the first gives the
   * standing it checks, the second works out the blocks again after the change (a removed
   * device lets a waiting one on, a new one past the limit waits). Servers named by `work`
   * are bumped with the rest.
   */
  private async change(
    { request, userId, actorId }: Acting,
    work: (tx: Database, sync: SyncResult) => Promise<Change>,
  ): Promise<number> {
    const { db } = this.ctx;
    const result = await retryOnDeadlock(() =>
      db
        .transaction(async (tx) => {
          const now = this.ctx.now();
          const before = await syncAccountIn(tx, userId, now);
          const done = await work(tx, before);
          const [action, data] = done.audit;
          await recordAudit(tx, request, {
            action,
            actorId: actorId ?? userId,
            subjectType: 'user',
            subjectId: userId,
            data: { device_id: done.deviceId, ...data },
          });
          const after = await syncAccountIn(tx, userId, now);
          const bumped = await bumpPeers(tx, done.servers);
          return {
            deviceId: done.deviceId,
            sync: {
              ...after,
              changedServers: [
                ...new Set([...before.changedServers, ...after.changedServers, ...bumped]),
              ],
            },
          };
        })
        .catch((error: unknown) => {
          // The one index a customer's input can collide with; any other (two devices given
          // one host number at once) is ours, and the retry below takes the next.
          if (isUniqueViolationOf(error, 'vpn_devices_public_key_key')) {
            throw AppError.field('public_key', M.publicKeyTaken);
          }
          throw error;
        }),
    );
    // The person's other open pages hear of it too.
    afterSync(this.ctx, userId, { ...result.sync, changedDevices: 1 });
    return result.deviceId;
  }

  private async lockDevice(tx: Database, userId: number, deviceId: number) {
    const [device] = await tx
      .select()
      .from(vpnDevices)
      .where(and(eq(vpnDevices.userId, userId), eq(vpnDevices.id, deviceId)))
      .for('update');
    if (!device) throw new AppError('not_found');
    return device;
  }

  /** A key is one device's, whoever's: two peers with one key would be one peer. */
  private async keyIsFree(tx: Database, publicKey: string): Promise<void> {
    const [taken] = await tx
      .select({ id: vpnDevices.id })
      .from(vpnDevices)
      .where(eq(vpnDevices.publicKey, publicKey));
    const [server] = await tx
      .select({ id: vpnServers.id })
      .from(vpnServers)
      .where(eq(vpnServers.publicKey, publicKey));
    if (taken || server) throw AppError.field('public_key', M.publicKeyTaken);
  }

  /**
   * The server and host number for a device at `location`: the one it has when that is
   * there and still takes devices, else the chosen server's lowest free number (under the
   * server's row lock).
   */
  private async place(
    tx: Database,
    userId: number,
    location: string,
    where: Whereabouts,
    current: { serverId: number | null; host: number | null } | null,
  ): Promise<{ serverId: number; host: number }> {
    const list = await candidates(tx);
    if (location !== FASTEST && current?.serverId != null && current.host !== null) {
      const stays = list.some((c) => c.id === current.serverId && c.countryCode === location);
      // Full servers are not candidates, but a device already on one keeps its place.
      const [here] = await tx
        .select({ code: countries.code, status: vpnServers.status })
        .from(vpnServers)
        .innerJoin(countries, eq(countries.id, vpnServers.countryId))
        .where(eq(vpnServers.id, current.serverId));
      if (stays || (here?.code === location && here.status === 'online')) {
        return { serverId: current.serverId, host: current.host };
      }
    }
    const near = location === FASTEST ? await this.nearOf(tx, userId, where) : null;
    const chosen = choose(list, location, near);
    if (!chosen) throw AppError.field('location', M.locationUnavailable);
    const [server] = await tx
      .select()
      .from(vpnServers)
      .where(eq(vpnServers.id, chosen.id))
      .for('update');
    const host = server ? await freeHost(tx, server) : undefined;
    if (!server || host === undefined) throw AppError.field('location', M.locationUnavailable);
    return { serverId: server.id, host };
  }

  /** Where the customer is, as far as we know: their profile's country, else their browser's. */
  private async nearOf(tx: Database, userId: number, where: Whereabouts): Promise<string | null> {
    return (await this.nearOfUser(userId, tx)) ?? where.browserCountry;
  }

  /** The country of the customer's profile, if they gave one. */
  async nearOfUser(userId: number, db: Database = this.ctx.db): Promise<string | null> {
    const [own] = await db
      .select({ code: countries.code })
      .from(users)
      .innerJoin(countries, eq(countries.id, users.countryId))
      .where(eq(users.id, userId));
    return own?.code ?? null;
  }

  private async answer(userId: number, deviceId: number): Promise<DeviceWithConfig> {
    const row = await ownDevice(this.ctx.db, userId, deviceId);
    if (!row) throw new AppError('not_found');
    return { device: presentDevice(row), config: configPartsOf(row) };
  }
}
