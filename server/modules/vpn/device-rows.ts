import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { Lang } from '#shared/locales.ts';
import type { Database } from '../../db/client.ts';
import { countries, vpnCities, vpnDevices, vpnServers } from '../../db/schema/index.ts';
import type { DeviceWithServer } from './device-presenter.ts';
import { countryName } from './server-rows.ts';

/** Devices with their servers' place, oldest first (the order the device limit counts in). */
export function selectDevices(db: Database, where: SQL, lang?: Lang): Promise<DeviceWithServer[]> {
  return db
    .select({
      device: vpnDevices,
      server: vpnServers,
      countryCode: countries.code,
      countryName: countryName(lang),
      city: vpnCities.name,
    })
    .from(vpnDevices)
    .leftJoin(vpnServers, eq(vpnServers.id, vpnDevices.serverId))
    .leftJoin(countries, eq(countries.id, vpnServers.countryId))
    .leftJoin(vpnCities, eq(vpnCities.id, vpnServers.cityId))
    .where(where)
    .orderBy(asc(vpnDevices.createdAt), asc(vpnDevices.id));
}

/** One of the user's devices, or undefined (someone else's is as good as none). */
export async function ownDevice(
  db: Database,
  userId: number,
  deviceId: number,
  lang?: Lang,
): Promise<DeviceWithServer | undefined> {
  const [row] = await selectDevices(
    db,
    and(eq(vpnDevices.userId, userId), eq(vpnDevices.id, deviceId)) as SQL,
    lang,
  );
  return row;
}
