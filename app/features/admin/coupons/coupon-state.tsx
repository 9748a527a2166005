import { useTranslation } from 'react-i18next';
import type { CouponState } from '#shared/contracts/admin/coupons.ts';

const TONES: Record<CouponState, string> = {
  active: 'bg-emerald-100 text-emerald-800',
  expired: 'bg-slate-100 text-slate-700',
  used_up: 'bg-amber-100 text-amber-800',
  deleted: 'bg-red-100 text-red-800',
};

export function CouponStateBadge({ state }: { state: CouponState }) {
  const { t } = useTranslation();
  return (
    <span
      data-testid="coupon-state"
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${TONES[state]}`}
    >
      {t(`staff_coupons.states.${state}`)}
    </span>
  );
}
