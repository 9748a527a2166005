import {
  deviceSignInEndpoints as e,
  DEVICE_SIGN_IN_MESSAGES as M,
} from '#shared/contracts/device-sign-in.ts';
import { AppError } from '../../http/app-error.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { recordAudit } from '../audit/audit-log.ts';
import {
  approveDeviceCode,
  type DeviceCodeState,
  denyDeviceCode,
  pendingDeviceCode,
} from '../oidc/device-codes.ts';
import { normalizeUserCode } from '../oidc/oidc-adapter.ts';
import { DevicesService } from './devices-service.ts';
import { vpnContext } from './vpn-context.ts';

const MINUTE = 60_000;

/** A code is 8 letters of 20 (2^34): a person gets a few tries, not a search. */
const LOOKUP_LIMITS = [
  { name: 'device-code-user', limit: 20, windowMs: 10 * MINUTE },
  { name: 'device-code-ip', limit: 60, windowMs: 10 * MINUTE },
] as const;

const refusalOf = (state: DeviceCodeState) =>
  AppError.field('user_code', M[state === 'unknown' ? 'unknown' : state]);

/** `BCDFGHJK` → `BCDF-GHJK`, as the device shows it. */
const shown = (code: string) => {
  const plain = normalizeUserCode(code);
  return plain.length === 8 ? `${plain.slice(0, 4)}-${plain.slice(4)}` : plain;
};

/** The device flow's confirmation page (shared/contracts/device-sign-in.ts). */
export function deviceSignInRoutes(app: App): Route[] {
  const devices = new DevicesService(vpnContext(app));

  const limit = (request: { ip: string }, userId: number) =>
    app.rateLimiter.consume(
      LOOKUP_LIMITS.map((rule) => ({
        ...rule,
        key: rule.name === 'device-code-user' ? String(userId) : request.ip,
      })),
    );

  /** The free slot the app's device will need: checked before anything is granted. */
  const slotsFor = async (userId: number) => {
    const slots = await devices.slots(userId);
    return {
      slots,
      refusal: !slots.access
        ? M.noAccess
        : slots.devices >= slots.deviceLimit
          ? M.deviceLimit
          : null,
    };
  };

  return [
    route(e.lookup, async ({ request, query, auth }) => {
      await limit(request, auth.user.id);
      const pending = await pendingDeviceCode(app.db, query.user_code);
      if (typeof pending === 'string') throw refusalOf(pending);
      const provider = await app.oidc.current();
      const client = await provider.Client.find(pending.clientId);
      if (!client) throw refusalOf('unknown');
      const { slots } = await slotsFor(auth.user.id);
      const logo = client.metadata().logo_uri;
      return {
        user_code: shown(query.user_code),
        client: {
          name: client.clientName ?? client.clientId,
          logo_uri: typeof logo === 'string' ? logo : null,
        },
        scopes: pending.scopes,
        expires_at: pending.expiresAt.toISOString(),
        vpn: { access: slots.access, devices: slots.devices, device_limit: slots.deviceLimit },
      };
    }),
    route(e.approve, async ({ request, body, auth }) => {
      await limit(request, auth.user.id);
      const provider = await app.oidc.current();
      const pending = await pendingDeviceCode(app.db, body.user_code);
      if (typeof pending === 'string') throw refusalOf(pending);
      if (!(await provider.Client.find(pending.clientId))) throw refusalOf('unknown');
      const { refusal } = await slotsFor(auth.user.id);
      if (refusal) throw new AppError('conflict', { info: refusal });
      const grantId = await approveDeviceCode(provider, app.db, {
        userCode: body.user_code,
        accountId: String(auth.user.id),
        amr: auth.user.twoFactorConfirmedAt ? ['pwd', 'otp'] : ['pwd'],
        label: body.device_name.trim(),
      });
      if (grantId === 'unknown' || grantId === 'expired' || grantId === 'used') {
        throw refusalOf(grantId);
      }
      await recordAudit(app.db, request, {
        action: 'oidc.device_approved',
        actorId: auth.user.id,
        subjectType: 'oauth_client',
        subjectId: pending.clientId,
        data: { device_name: body.device_name.trim(), scopes: pending.scopes, grant_id: grantId },
      });
      return { success: true as const };
    }),
    route(e.deny, async ({ request, body, auth }) => {
      await limit(request, auth.user.id);
      const result = await denyDeviceCode(app.db, body.user_code);
      if (result !== 'denied') throw refusalOf(result);
      await recordAudit(app.db, request, {
        action: 'oidc.device_refused',
        actorId: auth.user.id,
        subjectType: 'device_code',
      });
      return { success: true as const };
    }),
  ];
}
