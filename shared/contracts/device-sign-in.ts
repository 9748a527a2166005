import { z } from 'zod';
import { requiredString } from '../validation/required.ts';
import { endpoint } from './endpoint.ts';

// RFC 8628 as a person meets it (issue 24): a TV or router shows a code and our address;
// at /{lang}/device the signed-in customer types or follows the code, sees which app asks
// and for what, names the device, and confirms. A device slot of the plan must be free, as
// the app will add its WireGuard device with the tokens it receives.

export const DEVICE_SIGN_IN_MESSAGES = {
  unknown: 'apps.device.errors.unknown',
  expired: 'apps.device.errors.expired',
  used: 'apps.device.errors.used',
  noAccess: 'apps.device.errors.no_access',
  deviceLimit: 'apps.device.errors.device_limit',
} as const;

const userCode = requiredString(32);

export const deviceCodeQuery = z.object({ user_code: userCode });

export const deviceCodeResponse = z.object({
  /** The code as the device shows it (`BCDF-GHJK`). */
  user_code: z.string(),
  client: z.object({ name: z.string(), logo_uri: z.string().nullable() }),
  scopes: z.array(z.string()),
  expires_at: z.string(),
  /** Whether the plan gives VPN access now, and its device slots. */
  vpn: z.object({ access: z.boolean(), devices: z.number().int(), device_limit: z.number().int() }),
});
export type DeviceCodeResponse = z.infer<typeof deviceCodeResponse>;

export const approveDeviceRequest = z.object({
  user_code: userCode,
  device_name: requiredString(64),
});
export type ApproveDeviceRequest = z.infer<typeof approveDeviceRequest>;

const account = { base: 'account', access: 'active', tag: 'oauth' } as const;

export const deviceSignInEndpoints = {
  lookup: endpoint({
    ...account,
    method: 'GET',
    path: '/oauth/device',
    summary: 'The app a device code belongs to, and the plan’s free device slots',
    query: deviceCodeQuery,
    response: deviceCodeResponse,
  }),
  approve: endpoint({
    ...account,
    method: 'POST',
    path: '/oauth/device/approve',
    summary: 'Sign the device in: the app receives its tokens at its next poll',
    body: approveDeviceRequest,
    response: z.object({ success: z.literal(true) }),
  }),
  deny: endpoint({
    ...account,
    method: 'POST',
    path: '/oauth/device/deny',
    summary: 'Refuse the device',
    body: deviceCodeQuery,
    response: z.object({ success: z.literal(true) }),
  }),
};
