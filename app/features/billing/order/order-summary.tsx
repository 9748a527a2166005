import { useTranslation } from 'react-i18next';
import type { QuoteResponse } from '#shared/contracts/billing.ts';
import type { Lang } from '#shared/locales.ts';
import { formatMoney } from '#shared/money.ts';
import { Button } from '../../../ui/button.tsx';

export interface OrderSummaryProps {
  quote: QuoteResponse | undefined;
  /** The first answer is on its way. */
  loading: boolean;
  /** A newer answer is on its way (the figures shown are the previous ones). */
  updating: boolean;
  /** A failure other than a refused coupon; the summary offers to try again. */
  failed: boolean;
  onRetry: () => void;
  lang: Lang;
}

/** The quote's lines, discount and total; the total is a live region, read out as it changes. */
export function OrderSummary({
  quote,
  loading,
  updating,
  failed,
  onRetry,
  lang,
}: OrderSummaryProps) {
  const { t } = useTranslation();
  const money = (amount: number) =>
    quote ? formatMoney({ amount, currency: quote.currency }, lang) : '';
  return (
    <div data-testid="order-summary" aria-busy={loading || updating || undefined}>
      {loading && !quote ? (
        <div className="flex flex-col gap-3" aria-hidden="true">
          <div className="h-4 w-3/4 animate-pulse rounded bg-slate-100" />
          <div className="h-4 w-1/2 animate-pulse rounded bg-slate-100" />
          <div className="h-6 w-2/3 animate-pulse rounded bg-slate-100" />
        </div>
      ) : failed && !quote ? (
        <div className="flex flex-col items-start gap-3 text-sm text-slate-700">
          <p role="alert">{t('order.summary.failed')}</p>
          <Button variant="secondary" onClick={onRetry}>
            {t('order.retry')}
          </Button>
        </div>
      ) : (
        quote && (
          <dl className={`flex flex-col gap-2 text-sm ${updating ? 'opacity-60' : ''}`}>
            {quote.lines.map((line) => (
              <div key={line.product_id} className="flex justify-between gap-3">
                <dt className="min-w-0 text-slate-700">{line.description}</dt>
                <dd className="shrink-0 text-slate-900 tabular-nums">{money(line.amount)}</dd>
              </div>
            ))}
            {quote.discount > 0 && (
              <div className="flex justify-between gap-3 text-emerald-700">
                <dt className="min-w-0">
                  {t('order.summary.discount', { code: quote.coupon?.code ?? '' })}
                </dt>
                <dd className="shrink-0 tabular-nums" data-testid="order-discount">
                  −{money(quote.discount)}
                </dd>
              </div>
            )}
            {quote.tax > 0 && (
              <div className="flex justify-between gap-3">
                <dt className="text-slate-700">{t('order.summary.tax')}</dt>
                <dd className="shrink-0 text-slate-900 tabular-nums">{money(quote.tax)}</dd>
              </div>
            )}
            <div className="mt-2 flex justify-between gap-3 border-t border-slate-200 pt-3 text-base font-semibold text-slate-900">
              <dt>{t('order.summary.total')}</dt>
              <dd className="shrink-0 tabular-nums" data-testid="order-total">
                {money(quote.total)}
              </dd>
            </div>
          </dl>
        )
      )}
      {/* Read out once the figures settle, not at each intermediate answer. */}
      <p className="sr-only" role="status" aria-live="polite">
        {quote && !updating ? t('order.summary.total_live', { total: money(quote.total) }) : ''}
      </p>
    </div>
  );
}
