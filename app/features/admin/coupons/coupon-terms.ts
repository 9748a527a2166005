import type { TFunction } from 'i18next';
import type { AdminCoupon } from '#shared/contracts/admin/coupons.ts';
import type { Lang } from '#shared/locales.ts';
import { formatMoney } from '#shared/money.ts';

/** "25 %" or "$5.00" off: the discount as staff read it. */
export function discountText(coupon: AdminCoupon, lang: Lang): string {
  if (coupon.percent_off !== null) {
    return new Intl.NumberFormat(lang, { style: 'percent' }).format(coupon.percent_off / 100);
  }
  return formatMoney({ amount: coupon.amount_off ?? 0, currency: coupon.currency ?? 'USD' }, lang);
}

/** For how long it discounts: the first invoice, some months, or for good. */
export function durationText(coupon: AdminCoupon, t: TFunction): string {
  if (coupon.duration === 'repeating') {
    return t('staff_coupons.duration_months', { months: coupon.duration_in_months ?? 1 });
  }
  return t(`staff_coupons.durations.${coupon.duration}`);
}

/** The address of a pre-applied coupon's link, to share: it opens the order page with it. */
export function couponLink(origin: string, code: string, lang: Lang = 'en'): string {
  return `${origin}/api/public/v1/coupons/apply/${encodeURIComponent(code)}?lang=${lang}`;
}
