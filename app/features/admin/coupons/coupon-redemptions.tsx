import { useTranslation } from 'react-i18next';
import { type CouponRedemption, couponEndpoints } from '#shared/contracts/admin/coupons.ts';
import { formatMoney } from '#shared/money.ts';
import { RouteLink } from '../../../layout/route-link.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { useLang } from '../../auth/use-lang.ts';
import type { Column } from '../kit/data-table.tsx';
import { formatDateTime } from '../kit/format.ts';
import { ListPage } from '../kit/list-page.tsx';

/** Who used the coupon, when, on which subscription, and what its first invoice took off. */
export function CouponRedemptions({ couponId }: { couponId: number }) {
  const { t } = useTranslation();
  const lang = useLang();
  const columns: readonly Column<CouponRedemption>[] = [
    {
      key: 'customer',
      header: 'staff_coupons.redemptions.customer',
      cell: (row) =>
        row.user_id === null ? (
          t('staff_coupons.redemptions.customer_gone')
        ) : (
          <RouteLink
            name="admin.customers.view"
            params={{ id: String(row.user_id) }}
            className="font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
          >
            {row.email ?? `#${row.user_id}`}
          </RouteLink>
        ),
    },
    {
      key: 'subscription',
      header: 'staff_coupons.redemptions.subscription',
      cell: (row) => (row.subscription_id === null ? '—' : `#${row.subscription_id}`),
    },
    {
      key: 'redeemed_at',
      header: 'staff_coupons.redemptions.redeemed_at',
      cell: (row) => formatDateTime(row.redeemed_at, lang),
    },
    {
      key: 'invoice',
      header: 'staff_coupons.redemptions.invoice',
      cell: (row) =>
        row.invoice === null ? (
          '—'
        ) : (
          <span>
            {row.invoice.number ?? `#${row.invoice.invoice_id}`}
            <span className="block text-xs text-slate-600" data-testid="redemption-discount">
              {t('staff_coupons.redemptions.discount', {
                discount: formatMoney(
                  { amount: row.invoice.discount, currency: row.invoice.currency },
                  lang,
                ),
                total: formatMoney(
                  { amount: row.invoice.total, currency: row.invoice.currency },
                  lang,
                ),
              })}
            </span>
          </span>
        ),
    },
  ];
  return (
    <Panel id="coupon-redemptions" title={t('staff_coupons.redemptions.title')}>
      <div className="mt-4">
        <ListPage
          endpoint={couponEndpoints.redemptions}
          caption={t('staff_coupons.redemptions.title')}
          columns={columns}
          rowKey={(row) => row.redemption_id}
          fixed={{ coupon_id: couponId }}
          prefix="r_"
          perPage={10}
          empty={{ title: t('staff_coupons.redemptions.empty') }}
        />
      </div>
    </Panel>
  );
}
