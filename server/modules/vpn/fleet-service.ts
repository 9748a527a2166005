import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuditAction } from '#shared/audit-actions.ts';
import {
  type AdminServerDetail,
  type CountryUpdateRequest,
  type FleetCountry,
  SERVER_MESSAGES as M,
  type ServerFields,
  type ServerUpdateRequest,
  type ServerWithTokenResponse,
} from '#shared/contracts/admin/servers.ts';
import type { Lang } from '#shared/locales.ts';
import { FASTEST } from '#shared/vpn/fleet-rules.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation, retryOnDeadlock } from '../../db/errors.ts';
import {
  countries,
  type VpnServerRow,
  vpnCities,
  vpnDevices,
  vpnServers,
} from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { ActiveSession } from '../identity/sessions.ts';
import { countryOf, fleetCountryOf } from './fleet-query.ts';
import { forgetNodeTokens } from './node-auth.ts';
import { newNodeToken } from './node-tokens.ts';
import { candidates, choose, freeHost } from './placement.ts';
import { presentServerDetail } from './server-presenter.ts';
import { serverById } from './server-rows.ts';
import { bumpPeers, syncAccountIn } from './vpn-access.ts';
import type { VpnContext } from './vpn-context.ts';

/** The acting admin and their request. */
export interface Acting {
  request: FastifyRequest;
  actor: ActiveSession;
}

/** What a device's configuration is made of: a change to these sends it out of date. */
const CONFIG_FIELDS = ['endpointHost', 'endpointPort', 'dns'] as const;

/** Where nodes reach the API: the public address of the site. */
export function nodeApiUrl(appUrl: string): string {
  return appUrl.replace(/\/+$/, '');
}

/**
 * §2 /admin/servers: staff's servers and the countries customers may pick. Every change is
 * audited in its own transaction; a removal drains the server first (its devices move to the
 * lightest server left in the country, or the nearest one), so no customer is left on a
 * server that no longer answers.
 */
export class FleetService {
  constructor(private readonly ctx: VpnContext) {}

  async view(id: number, lang?: Lang): Promise<AdminServerDetail> {
    const row = await serverById(this.ctx.db, id, lang);
    if (!row) throw new AppError('not_found');
    return presentServerDetail(row, nodeApiUrl(this.ctx.config.appUrl));
  }

  async create(acting: Acting, fields: ServerFields): Promise<ServerWithTokenResponse> {
    const { token, hash } = newNodeToken();
    const id = await this.write(async (tx) => {
      const place = await this.place(tx, fields);
      const [server] = await tx
        .insert(vpnServers)
        .values({ ...this.columns(fields), ...place, tokenHash: hash })
        .returning({ id: vpnServers.id });
      if (!server) throw new Error('server not inserted');
      await this.audit(tx, acting, 'servers.created', server.id, {
        name: fields.name,
        country: fields.country_code,
        city: fields.city,
      });
      return server.id;
    });
    this.ctx.events.serversChanged([id], { statusChanged: true });
    return { server: await this.view(id), enrollment_token: token };
  }

  async update(acting: Acting, input: ServerUpdateRequest): Promise<AdminServerDetail> {
    await this.write(async (tx) => {
      const server = await this.lock(tx, input.server_id);
      const place = await this.place(tx, input);
      const columns = this.columns(input);
      const [placed] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(vpnDevices)
        .where(eq(vpnDevices.serverId, server.id));
      const devices = Number(placed?.n ?? 0);
      if (columns.capacity < devices) throw AppError.field('capacity', M.capacityBelowDevices);
      // Devices' addresses are host numbers of the pools: with devices on it they stay.
      if (devices > 0 && columns.ipv4Pool !== server.ipv4Pool) {
        throw AppError.field('ipv4_pool', M.poolInUse);
      }
      if (devices > 0 && columns.ipv6Pool !== server.ipv6Pool) {
        throw AppError.field('ipv6_pool', M.poolInUse);
      }
      await tx
        .update(vpnServers)
        .set({ ...columns, ...place })
        .where(eq(vpnServers.id, server.id));
      const configChanged = CONFIG_FIELDS.some(
        (field) => JSON.stringify(columns[field]) !== JSON.stringify(server[field]),
      );
      if (configChanged) {
        await tx
          .update(vpnDevices)
          .set({ configChangedAt: this.ctx.now() })
          .where(eq(vpnDevices.serverId, server.id));
      }
      const changed = Object.fromEntries(
        Object.entries(columns).filter(
          ([key, value]) =>
            JSON.stringify(value) !== JSON.stringify(server[key as keyof VpnServerRow]),
        ),
      );
      await this.audit(tx, acting, 'servers.updated', server.id, { changed: Object.keys(changed) });
    });
    this.ctx.events.serversChanged([input.server_id], { statusChanged: true });
    return this.view(input.server_id);
  }

  /** Maintenance on: no new device is placed there, its devices stay. Off: online again. */
  async maintenance(acting: Acting, id: number, on: boolean): Promise<AdminServerDetail> {
    const changed = await this.write(async (tx) => {
      const server = await this.lock(tx, id);
      if (server.status === 'draining') throw new AppError('conflict');
      const next = on ? 'maintenance' : this.liveStatus(server);
      if (next === server.status) return false;
      await tx.update(vpnServers).set({ status: next }).where(eq(vpnServers.id, id));
      await this.audit(tx, acting, on ? 'servers.maintenance_on' : 'servers.maintenance_off', id, {
        from: server.status,
      });
      return true;
    });
    if (changed) this.ctx.events.serversChanged([id], { statusChanged: true });
    return this.view(id);
  }

  /** A new token: the old one stops at once; the node's key stays (rotate to re-enroll). */
  async rotateToken(acting: Acting, id: number): Promise<ServerWithTokenResponse> {
    const { token, hash } = newNodeToken();
    await this.write(async (tx) => {
      await this.lock(tx, id);
      await tx
        .update(vpnServers)
        .set({ tokenHash: hash, tokenRotatedAt: new Date() })
        .where(eq(vpnServers.id, id));
      await this.audit(tx, acting, 'servers.token_rotated', id, {});
    });
    forgetNodeTokens(this.ctx.db);
    return { server: await this.view(id), enrollment_token: token };
  }

  /**
   * Drains the server and removes it: each device moves to the lightest server that takes
   * devices in the same country (else the nearest country's), keeping its location choice,
   * and is told its configuration changed; a device with nowhere to go waits without a
   * server. The node is told to empty its interface (its version grows, `retired`).
   */
  async delete(acting: Acting, id: number): Promise<{ moved: number; stranded: number }> {
    const now = this.ctx.now();
    const outcome = await retryOnDeadlock(() =>
      this.ctx.db.transaction(async (tx) => {
        const server = await this.lock(tx, id);
        await tx
          .update(vpnServers)
          .set({ status: 'draining', retiredAt: new Date() })
          .where(eq(vpnServers.id, id));
        const country = await countryOf(tx, server.countryId);
        const devices = await tx
          .select()
          .from(vpnDevices)
          .where(eq(vpnDevices.serverId, id))
          .orderBy(asc(vpnDevices.id));
        const targets = new Set<number>([id]);
        const users = new Set<number>();
        let moved = 0;
        // Counted here as devices land, so they spread like new devices would.
        let list = await candidates(tx, ne(vpnServers.id, id));
        for (const device of devices) {
          users.add(device.userId);
          list = list.filter((c) => c.devices < c.capacity);
          const sameCountry = list.filter((c) => c.countryCode === country);
          const chosen = choose(
            sameCountry.length > 0 ? sameCountry : list,
            FASTEST,
            country ?? null,
          );
          if (chosen) chosen.devices += 1;
          const [target] = chosen
            ? await tx.select().from(vpnServers).where(eq(vpnServers.id, chosen.id)).for('update')
            : [];
          const host = target ? await freeHost(tx, target) : undefined;
          await tx
            .update(vpnDevices)
            .set({
              serverId: target && host !== undefined ? target.id : null,
              host: target && host !== undefined ? host : null,
              previousServerId: id,
              configChangedAt: now,
            })
            .where(eq(vpnDevices.id, device.id));
          if (target && host !== undefined) {
            targets.add(target.id);
            moved += 1;
          }
        }
        // The stranded wait without a server; the moved keep their standing.
        for (const userId of [...users].sort((a, b) => a - b)) await syncAccountIn(tx, userId, now);
        const bumped = await bumpPeers(tx, targets);
        await this.audit(tx, acting, 'servers.deleted', id, {
          name: server.name,
          moved,
          stranded: devices.length - moved,
        });
        return { moved, stranded: devices.length - moved, bumped, users: [...users] };
      }),
    );
    forgetNodeTokens(this.ctx.db);
    this.ctx.signal.notify(outcome.bumped);
    this.ctx.events.serversChanged(outcome.bumped, { statusChanged: true });
    for (const userId of outcome.users) void this.ctx.events.userDevicesChanged(userId, 0);
    return { moved: outcome.moved, stranded: outcome.stranded };
  }

  /** §2 countries: shown to customers or not, and where in their list. */
  async updateCountry(
    acting: Acting,
    input: CountryUpdateRequest,
    lang?: string,
  ): Promise<FleetCountry> {
    await this.write(async (tx) => {
      const [country] = await tx
        .update(countries)
        .set({ vpnVisible: input.visible, vpnSort: input.sort })
        .where(eq(countries.code, input.country_code))
        .returning({ id: countries.id });
      if (!country) throw AppError.field('country_code', M.countryUnknown);
      await recordAudit(tx, acting.request, {
        action: 'servers.country_updated',
        actorId: acting.actor.user.id,
        subjectType: 'country',
        subjectId: input.country_code,
        data: { visible: input.visible, sort: input.sort },
      });
    });
    this.ctx.events.locationsChanged(true);
    const found = await fleetCountryOf(this.ctx.db, input.country_code, lang);
    if (!found) throw new AppError('not_found');
    return found;
  }

  /** Online when its node was heard from lately, offline otherwise; new if it never was. */
  private liveStatus(server: VpnServerRow): VpnServerRow['status'] {
    if (!server.enrolledAt) return 'new';
    const silentFor = Date.now() - (server.lastSeenAt?.getTime() ?? 0);
    return silentFor < 60_000 ? 'online' : 'offline';
  }

  private columns(fields: ServerFields) {
    return {
      name: fields.name,
      endpointHost: fields.endpoint_host.toLowerCase(),
      endpointPort: fields.endpoint_port,
      listenPort: fields.listen_port,
      ipv4Pool: fields.ipv4_pool,
      ipv6Pool: fields.ipv6_pool,
      dns: fields.dns,
      capacity: fields.capacity,
      tags: [...new Set(fields.tags)],
    };
  }

  /** The country by its code and the city by id (it must be the country's) or by name. */
  private async place(
    tx: Database,
    fields: Pick<ServerFields, 'country_code' | 'city' | 'city_id'>,
  ): Promise<{ countryId: number; cityId: number }> {
    const [country] = await tx
      .select({ id: countries.id })
      .from(countries)
      .where(eq(countries.code, fields.country_code));
    if (!country) throw AppError.field('country_code', M.countryUnknown);
    if (fields.city_id !== null) {
      const [city] = await tx.select().from(vpnCities).where(eq(vpnCities.id, fields.city_id));
      if (!city || city.countryId !== country.id) throw AppError.field('city', M.cityElsewhere);
      return { countryId: country.id, cityId: city.id };
    }
    await tx
      .insert(vpnCities)
      .values({ countryId: country.id, name: fields.city })
      .onConflictDoNothing();
    const [city] = await tx
      .select({ id: vpnCities.id })
      .from(vpnCities)
      .where(
        and(
          eq(vpnCities.countryId, country.id),
          sql`lower(${vpnCities.name}) = lower(${fields.city})`,
        ),
      );
    if (!city) throw new Error('city not found after insert');
    return { countryId: country.id, cityId: city.id };
  }

  private async lock(tx: Database, id: number): Promise<VpnServerRow> {
    const [server] = await tx
      .select()
      .from(vpnServers)
      .where(and(eq(vpnServers.id, id), isNull(vpnServers.retiredAt)))
      .for('update');
    if (!server) throw new AppError('not_found');
    return server;
  }

  /** A transaction of staff's; a name another live server has is refused under the field. */
  private async write<T>(work: (tx: Database) => Promise<T>): Promise<T> {
    try {
      return await retryOnDeadlock(() => this.ctx.db.transaction(work));
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.field('name', M.nameTaken);
      throw error;
    }
  }

  private audit(
    tx: Database,
    { request, actor }: Acting,
    action: AuditAction,
    id: number,
    data: Record<string, unknown>,
  ) {
    return recordAudit(tx, request, {
      action,
      actorId: actor.user.id,
      subjectType: 'vpn_server',
      subjectId: id,
      data,
    });
  }
}
