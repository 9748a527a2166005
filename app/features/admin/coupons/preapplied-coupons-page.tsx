import { useTranslation } from 'react-i18next';
import { type AdminCoupon, couponEndpoints } from '#shared/contracts/admin/coupons.ts';
import { Button } from '../../../ui/button.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import type { Column } from '../kit/data-table.tsx';
import { ListPage } from '../kit/list-page.tsx';
import { couponColumns } from './coupon-columns.tsx';
import { couponLink } from './coupon-terms.ts';
import { CouponsTabs } from './coupons-tabs.tsx';

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    notify.success('staff_coupons.done.link_copied');
  } catch {
    // No clipboard (an insecure page, a refused permission): the link stays on screen to copy.
    notify.danger('staff_coupons.copy_failed');
  }
}

/**
 * §2 /admin/coupons/preapplied: the coupons offered by link, each with the link to share;
 * opening it sets the coupon cookie, so the order page shows the discount already applied.
 */
export function PreappliedCouponsPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const origin = window.location.origin;
  const link: Column<AdminCoupon> = {
    key: 'link',
    header: 'staff_coupons.fields.link',
    cell: (coupon) => (
      <code className="block max-w-xs truncate text-xs text-slate-600" data-testid="coupon-link">
        {couponLink(origin, coupon.code)}
      </code>
    ),
  };
  return (
    <AdminPage title={t('staff.route_titles.admin_coupons_preapplied')}>
      <CouponsTabs />
      <p className="text-sm text-slate-600">{t('staff_coupons.preapplied_text')}</p>
      <ListPage
        endpoint={couponEndpoints.list}
        caption={t('staff.route_titles.admin_coupons_preapplied')}
        columns={[...couponColumns(t, lang).filter((column) => column.key !== 'expires_at'), link]}
        rowKey={(coupon) => coupon.coupon_id}
        rowActions={(coupon) => (
          <Button
            variant="secondary"
            onClick={() => void copy(couponLink(origin, coupon.code))}
            aria-label={t('staff_coupons.copy_link_of', { code: coupon.code })}
          >
            {t('staff_coupons.copy_link')}
          </Button>
        )}
        fixed={{ preapplied: 'true' }}
        searchLabel={t('staff_coupons.search')}
        empty={{
          title: t('staff_coupons.preapplied_empty'),
          text: t('staff_coupons.preapplied_empty_text'),
        }}
      />
    </AdminPage>
  );
}
