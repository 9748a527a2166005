import { z } from 'zod';
import { REAL_GATEWAYS } from '../../billing/gateway-settings.ts';
import { SERVICE_ID_LIST } from '../../subscription/actions.ts';
import { endpoint } from '../endpoint.ts';

// The keys of each real payment gateway as staff see and set them (§2
// /admin/payment-gateways/{stripe|paypal|iap|cryptomus}). Secrets are write-only: the answer
// says whether one is set, never what it is; a form that leaves one out keeps it.

export const gatewaySettingsView = z
  .object({
    gateway: z.enum(REAL_GATEWAYS),
    service_id: z.literal(SERVICE_ID_LIST),
    /** Selling now: keys present and valid, and not switched off. */
    enabled: z.boolean(),
    /** Where the keys in force come from. */
    source: z.enum(['environment', 'admin', 'none']),
    /** The fields that are not secret, as in force. */
    values: z.record(z.string(), z.union([z.string(), z.boolean(), z.number()])),
    /** Which secret fields hold a value. */
    secrets: z.record(z.string(), z.boolean()),
    /** Where to point the provider's webhook. */
    webhook_url: z.string(),
  })
  .meta({ id: 'GatewaySettings' });
export type GatewaySettingsView = z.infer<typeof gatewaySettingsView>;

export const gatewaySettingsUpdate = z.object({
  gateway: z.enum(REAL_GATEWAYS),
  enabled: z.boolean(),
  /** Field → value, checked against the gateway's own schema; a secret left out is kept. */
  values: z.record(
    z.string().max(40),
    z.union([z.string().max(40_000), z.boolean(), z.number(), z.null()]),
  ),
});
export type GatewaySettingsUpdate = z.infer<typeof gatewaySettingsUpdate>;

export const gatewaySettingsEndpoints = {
  list: endpoint({
    method: 'GET',
    base: 'dashboard',
    path: '/payment-gateways/settings',
    access: { permission: 'commerce' },
    feature: 'billing',
    tag: 'payment-gateways',
    summary: "Each real gateway's keys as in force (secrets only as set or not)",
    response: z.object({ items: z.array(gatewaySettingsView) }),
  }),
  update: endpoint({
    method: 'POST',
    base: 'dashboard',
    path: '/payment-gateways/settings/update',
    access: { permission: 'commerce' },
    feature: 'billing',
    tag: 'payment-gateways',
    summary: "Sets a gateway's keys (sealed at rest) or switches it off; takes effect at once",
    body: gatewaySettingsUpdate,
    response: z.object({ item: gatewaySettingsView }),
  }),
};
