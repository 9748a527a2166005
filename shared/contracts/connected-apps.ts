import { z } from 'zod';
import { endpoint } from './endpoint.ts';

// Issue 24 "Connected apps": each app the person allowed to act for them (our phone and TV
// apps, a partner's site), what it may do, when it was last used and the device it runs on;
// revoking one signs it out at once (and removes the VPN device it added).

export const connectedApp = z.object({
  grant_id: z.string(),
  client: z.object({
    name: z.string(),
    logo_uri: z.string().nullable(),
    first_party: z.boolean(),
  }),
  scopes: z.array(z.string()),
  /** What the person named the device when they signed it in (the device flow). */
  device_name: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type ConnectedApp = z.infer<typeof connectedApp>;

export const connectedAppsResponse = z.object({ items: z.array(connectedApp) });
export type ConnectedAppsResponse = z.infer<typeof connectedAppsResponse>;

export const revokeConnectedAppRequest = z.object({ grant_id: z.string().min(1).max(64) });

const account = { base: 'account', access: 'active', tag: 'connected-apps' } as const;
const success = z.object({ success: z.literal(true) });

export const connectedAppsEndpoints = {
  list: endpoint({
    ...account,
    method: 'GET',
    path: '/connected-apps',
    summary: 'The apps the person allowed, with scopes, last use and device',
    response: connectedAppsResponse,
  }),
  revoke: endpoint({
    ...account,
    method: 'POST',
    path: '/connected-apps/revoke',
    summary: 'Sign one app out: its tokens stop at once',
    body: revokeConnectedAppRequest,
    response: success,
  }),
  revokeAll: endpoint({
    ...account,
    method: 'POST',
    path: '/connected-apps/revoke-all',
    summary: 'Sign every app out',
    response: success,
  }),
};
