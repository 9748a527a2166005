import { useTranslation } from 'react-i18next';
import { useRoutePath } from '../../../layout/route-link.tsx';
import { PageTabs } from '../kit/page-tabs.tsx';

/** The two coupon lists, as tabs: every coupon, and the pre-applied ones with their links. */
export function CouponsTabs() {
  const { t } = useTranslation();
  const tabs = [
    { to: useRoutePath('admin.coupons.overview'), label: t('staff_coupons.tabs.overview') },
    { to: useRoutePath('admin.coupons.preapplied'), label: t('staff_coupons.tabs.preapplied') },
  ];
  return <PageTabs label={t('staff_coupons.tabs.label')} tabs={tabs} />;
}
