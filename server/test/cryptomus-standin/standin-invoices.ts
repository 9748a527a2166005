import { randomUUID } from 'node:crypto';

// The stand-in's books: invoices with the fields Cryptomus's API and webhooks show
// (doc.cryptomus.com "Creating an invoice", "Payment information", "Webhook").

export interface StandInInvoice {
  uuid: string;
  order_id: string;
  amount: string;
  payment_amount: string | null;
  payer_amount: string | null;
  payer_currency: string | null;
  currency: string;
  network: string | null;
  address: string | null;
  from: string | null;
  txid: string | null;
  payment_status: string | null;
  url: string;
  expired_at: number;
  status: string;
  is_final: boolean;
  additional_data: string | null;
  created_at: string;
  updated_at: string;
  /** Not shown by the API: where the invoice's customer and webhooks go. */
  url_return: string | null;
  url_success: string | null;
  url_callback: string | null;
}

/** Cryptomus writes Moscow time with its offset: `2023-06-28T11:24:15+03:00`. */
export function moscowTime(at: Date): string {
  return `${new Date(at.getTime() + 3 * 3_600_000).toISOString().slice(0, 19)}+03:00`;
}

export const FINAL_STATUSES = new Set([
  'paid',
  'paid_over',
  'wrong_amount',
  'fail',
  'cancel',
  'system_fail',
  'refund_paid',
  'refund_fail',
]);

export interface NewInvoice {
  amount: string;
  currency: string;
  order_id: string;
  lifetime: number;
  additional_data: string | null;
  url_return: string | null;
  url_success: string | null;
  url_callback: string | null;
}

export function makeInvoice(input: NewInvoice, pageBase: string, now: Date): StandInInvoice {
  const uuid = randomUUID();
  return {
    uuid,
    order_id: input.order_id,
    amount: input.amount,
    payment_amount: null,
    payer_amount: null,
    payer_currency: null,
    currency: input.currency,
    network: null,
    address: null,
    from: null,
    txid: null,
    payment_status: null,
    url: `${pageBase}/pay/${uuid}`,
    expired_at: Math.floor(now.getTime() / 1000) + input.lifetime,
    status: 'check',
    is_final: false,
    additional_data: input.additional_data,
    created_at: moscowTime(now),
    updated_at: moscowTime(now),
    url_return: input.url_return,
    url_success: input.url_success,
    url_callback: input.url_callback,
  };
}

/** What /v1/payment and /v1/payment/info answer for an invoice. */
export function invoiceView(invoice: StandInInvoice) {
  const { url_return: _r, url_success: _s, url_callback: _c, ...view } = invoice;
  return view;
}

/** The webhook's fields, in the order of the documented example (`sign` is added on top). */
export function webhookPayload(invoice: StandInInvoice): Record<string, unknown> {
  return {
    type: 'payment',
    uuid: invoice.uuid,
    order_id: invoice.order_id,
    amount: invoice.amount,
    payment_amount: invoice.payment_amount,
    payment_amount_usd: invoice.payment_amount,
    merchant_amount: invoice.payment_amount,
    commission: '0.00',
    is_final: invoice.is_final,
    status: invoice.status,
    from: invoice.from,
    wallet_address_uuid: null,
    network: invoice.network,
    currency: invoice.currency,
    payer_currency: invoice.payer_currency,
    payer_amount: invoice.payer_amount,
    additional_data: invoice.additional_data,
    txid: invoice.txid,
  };
}

/** The chain's part of a payment: the customer sent the amount in USDT on Tron. */
export function markPaid(invoice: StandInInvoice): void {
  invoice.payment_amount = invoice.amount;
  invoice.payer_amount = invoice.amount;
  invoice.payer_currency = 'USDT';
  invoice.network = 'tron';
  invoice.from = 'TK84acJWcSncphx4RBKQiNJmx6Bwtg9a8r';
  invoice.txid ??= randomUUID().replace(/-/g, '').repeat(2);
}
