// What an invoice PDF shows, as the billing module hands it over: plain values, no database
// rows. Every amount is an integer of the currency's minor unit (shared/money.ts), all of
// them in `currency`; the renderer adds nothing up, so the figures printed are the caller's.

export const INVOICE_STATUSES = ['paid', 'open', 'void', 'refunded', 'finalizing'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export interface InvoiceParty {
  name: string;
  /** Address lines as they are printed, one a line (street, postcode and city, country). */
  lines: string[];
}

export interface InvoiceLine {
  description: string;
  quantity: number;
  /** Minor units. */
  unitAmount: number;
  /** Minor units: the line's amount as billed (normally quantity × unitAmount). */
  amount: number;
}

export interface InvoiceDocument {
  /** The caller's gapless number, e.g. "INV-2026-000123". */
  number: string;
  status: InvoiceStatus;
  issuedAt: Date;
  paidAt: Date | null;
  /** The service period the invoice covers; shown when both ends are known. */
  periodStart: Date | null;
  periodEnd: Date | null;
  /** ISO 4217, upper case. */
  currency: string;
  seller: InvoiceParty & { taxId?: string };
  buyer: InvoiceParty & { email: string };
  lines: InvoiceLine[];
  subtotal: number;
  /** `amount` is positive and printed as a minus; `label` names it (a coupon, "Annual −20 %"). */
  discount: { label: string; amount: number } | null;
  /** `label` is the tax's own name ("VAT", "НДС"); empty prints the language's word for tax. */
  tax: { label: string; ratePercent: number; amount: number } | null;
  total: number;
  amountPaid: number;
  amountRefunded: number;
}
