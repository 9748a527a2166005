import type { TFunction } from 'i18next';
import type { AdminCoupon } from '#shared/contracts/admin/coupons.ts';
import type { Lang } from '#shared/locales.ts';
import { RouteLink } from '../../../layout/route-link.tsx';
import type { Column } from '../kit/data-table.tsx';
import { formatDateTime } from '../kit/format.ts';
import { CouponStateBadge } from './coupon-state.tsx';
import { discountText, durationText } from './coupon-terms.ts';

/** The columns both coupon lists show: code (to its page), name, discount, uses, expiry, state. */
export function couponColumns(t: TFunction, lang: Lang): Column<AdminCoupon>[] {
  return [
    {
      key: 'code',
      header: 'staff_coupons.fields.code',
      sort: 'code',
      cell: (coupon) => (
        <RouteLink
          name="admin.coupons.view"
          params={{ coupon_id: String(coupon.coupon_id) }}
          className="font-mono font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
        >
          {coupon.code}
        </RouteLink>
      ),
    },
    { key: 'name', header: 'staff_coupons.fields.name', sort: 'name', cell: (c) => c.name },
    {
      key: 'discount',
      header: 'staff_coupons.fields.discount',
      cell: (coupon) => (
        <span className="whitespace-nowrap">
          {discountText(coupon, lang)}
          <span className="block text-xs text-slate-500">{durationText(coupon, t)}</span>
        </span>
      ),
    },
    {
      key: 'times_redeemed',
      header: 'staff_coupons.fields.times_redeemed',
      sort: 'times_redeemed',
      cell: (coupon) =>
        coupon.max_redemptions === null
          ? String(coupon.times_redeemed)
          : `${coupon.times_redeemed} / ${coupon.max_redemptions}`,
    },
    {
      key: 'expires_at',
      header: 'staff_coupons.fields.expires_at',
      sort: 'expires_at',
      cell: (coupon) =>
        coupon.expires_at ? formatDateTime(coupon.expires_at, lang) : t('staff_coupons.never'),
    },
    {
      key: 'state',
      header: 'staff_coupons.fields.state',
      cell: (coupon) => <CouponStateBadge state={coupon.state} />,
    },
  ];
}
