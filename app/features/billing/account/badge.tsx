import { useTranslation } from 'react-i18next';
import type { InvoiceStatus } from '#shared/billing/billing-values.ts';
import type { SubscriptionStatus } from '#shared/subscription/actions.ts';

const TONES = {
  green: 'bg-emerald-100 text-emerald-800',
  amber: 'bg-amber-100 text-amber-800',
  red: 'bg-red-100 text-red-800',
  slate: 'bg-slate-100 text-slate-700',
  brand: 'bg-brand-50 text-brand-700',
} as const;
export type BadgeTone = keyof typeof TONES;

/** A short state in words (never colour alone). */
export function Badge({
  tone,
  children,
  testId,
}: {
  tone: BadgeTone;
  children: string;
  testId?: string;
}) {
  return (
    <span
      data-testid={testId}
      className={`inline-flex shrink-0 items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}

const SUBSCRIPTION_STATUS: Record<SubscriptionStatus, [key: string, tone: BadgeTone]> = {
  active: ['subscription_status.active', 'green'],
  paused: ['subscription_status.paused', 'slate'],
  canceled: ['subscription_status.canceled', 'amber'],
  expired: ['subscription_status.expired', 'slate'],
  refunded: ['subscription_status.refunded', 'slate'],
  on_hold: ['subscription_status.on_hold', 'red'],
  failed: ['subscription_status.failed', 'red'],
};

/** §4 the seven subscription statuses. */
export function SubscriptionStatusBadge({ status }: { status: SubscriptionStatus }) {
  const { t } = useTranslation();
  const [key, tone] = SUBSCRIPTION_STATUS[status];
  return (
    <Badge tone={tone} testId="subscription-status">
      {t(key)}
    </Badge>
  );
}

const INVOICE_STATUS: Record<InvoiceStatus, [key: string, tone: BadgeTone]> = {
  draft: ['invoices.status.draft', 'slate'],
  finalizing: ['invoices.status.finalizing', 'brand'],
  open: ['invoices.status.open', 'amber'],
  paid: ['invoices.status.paid', 'green'],
  void: ['invoices.status.void', 'slate'],
  uncollectible: ['invoices.status.uncollectible', 'red'],
};

export function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  const { t } = useTranslation();
  const [key, tone] = INVOICE_STATUS[status];
  return (
    <Badge tone={tone} testId="invoice-status">
      {t(key)}
    </Badge>
  );
}
