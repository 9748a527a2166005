import { z } from 'zod';
import { SERVICE_ID_LIST, SUBSCRIPTION_STATUSES } from '../subscription/actions.ts';
import { endpoint } from './endpoint.ts';

// The subscription rules (shared/subscription/actions.ts) stay free of zod so the browser's
// first bundle can use them; their wire schema lives here.
export const subscriptionValueSchema = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES),
  service_id: z.literal(SERVICE_ID_LIST),
  onetime: z.boolean(),
  exists: z.boolean().optional(),
});

// §3 "a current subscription and a
// last-invoice-finalizing flag", as far as routing and menus need it. The billing issue
// adds the plan, items and payment method.
export const currentSubscriptionResponse = z.object({
  subscription: subscriptionValueSchema.nullable(),
  last_invoice_finalizing: z.boolean(),
});
export type CurrentSubscriptionResponse = z.infer<typeof currentSubscriptionResponse>;

/** What the browser's guards and menus need (§2); billing fills it in. */
export const currentSubscriptionEndpoint = endpoint({
  method: 'GET',
  base: 'account',
  path: '/subscriptions/current',
  access: 'signed-in',
  appScope: 'account',
  summary: 'The current subscription, if any',
  response: currentSubscriptionResponse,
});
