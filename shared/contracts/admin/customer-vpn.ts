import { z } from 'zod';
import { recordId, recordIdNumber } from '../../validation/record-id.ts';
import { endpoint } from '../endpoint.ts';
import { devicesResponse } from '../vpn.ts';

// §2 /admin/customers/{id}: a customer's WireGuard devices and traffic, as they see them,
// and staff removing one (a lost phone). Admin only, with the customers.

const admin = { base: 'dashboard', access: { permission: 'customers' }, tag: 'users' } as const;

export const customerVpnEndpoints = {
  view: endpoint({
    ...admin,
    method: 'GET',
    path: '/users/vpn',
    summary: "A customer's WireGuard devices, device limit, access and period traffic",
    query: z.object({ user_id: recordId, lang: z.string().max(5).optional() }),
    response: devicesResponse,
  }),
  deleteDevice: endpoint({
    ...admin,
    method: 'POST',
    path: '/users/vpn/delete-device',
    summary: "Remove one of a customer's devices: its peer leaves its server",
    body: z.object({ user_id: recordIdNumber, device_id: recordIdNumber }),
    response: z.object({ success: z.literal(true) }),
  }),
} as const;
