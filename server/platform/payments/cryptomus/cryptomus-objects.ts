import { z } from 'zod';
import { BILLING_INTERVALS } from '#shared/billing/billing-values.ts';

// Cryptomus's objects as its API answers them (doc.cryptomus.com, "Creating an invoice",
// "Payment information", "Payment statuses"), read with zod so a changed answer fails loudly
// instead of granting something by accident. Only the fields we use are named.

/** Every documented payment status. */
export const CRYPTOMUS_STATUSES = [
  'paid',
  'paid_over',
  'wrong_amount',
  'process',
  'confirm_check',
  'wrong_amount_waiting',
  'check',
  'fail',
  'cancel',
  'system_fail',
  'refund_process',
  'refund_fail',
  'refund_paid',
  'locked',
] as const;
export type CryptomusStatus = (typeof CRYPTOMUS_STATUSES)[number];

export const cryptomusInvoice = z.object({
  uuid: z.string().min(1),
  order_id: z.string().min(1),
  /** Decimal string in `currency`, e.g. "12.99" or "12.99000000". */
  amount: z.string(),
  currency: z.string(),
  url: z.string().optional(),
  /** An unknown status (a new one of theirs) is read as still in progress, never as paid. */
  status: z.string(),
  is_final: z.boolean(),
  payer_currency: z.string().nullish(),
  from: z.string().nullish(),
  txid: z.string().nullish(),
  additional_data: z.string().nullish(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
});
export type CryptomusInvoice = z.infer<typeof cryptomusInvoice>;

export const cryptomusInvoiceList = z.object({
  items: z.array(cryptomusInvoice),
  paginate: z.object({
    nextCursor: z.string().nullish(),
  }),
});

/**
 * What the snapshots need that Cryptomus does not keep: whose order it is and what was
 * bought, in the invoice's `additional_data` (at most 255 characters, never shown to the
 * customer). Short keys keep a plan and its addons within that.
 */
export const orderNote = z.object({
  /** Our user id. */
  u: z.string().regex(/^\d+$/),
  /** The checkout's kind (new, reactivate, bonus), for staff. */
  k: z.string().max(20).optional(),
  i: z.enum(BILLING_INTERVALS),
  /** Intervals bought. */
  n: z.number().int().positive(),
  /** Coupon code, if any. */
  d: z.string().max(40).nullable(),
  /** Lines: product id, amount in minor units, name (cut short). The plan first. */
  l: z.array(z.tuple([z.number().int().positive(), z.number().int().nonnegative(), z.string()])),
});
export type OrderNote = z.infer<typeof orderNote>;

export const NOTE_LIMIT = 255;

export function readNote(additionalData: string | null | undefined): OrderNote | null {
  if (!additionalData) return null;
  try {
    const parsed = orderNote.safeParse(JSON.parse(additionalData));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Our customer at Cryptomus, which has no customers: a stable name per user. */
export const customerRefOf = (userId: string | number) => `user-${userId}`;

/** Minor units as Cryptomus's decimal string (every currency we sell has two decimals). */
export function decimalAmount(minor: number): string {
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}

export function minorAmount(decimal: string): number {
  return Math.round(Number(decimal) * 100);
}
