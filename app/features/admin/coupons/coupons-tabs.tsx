import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useRoutePath } from '../../../layout/route-link.tsx';

/** The two coupon lists, as tabs: every coupon, and the pre-applied ones with their links. */
export function CouponsTabs() {
  const { t } = useTranslation();
  const tabs = [
    { to: useRoutePath('admin.coupons.overview'), label: t('staff_coupons.tabs.overview') },
    { to: useRoutePath('admin.coupons.preapplied'), label: t('staff_coupons.tabs.preapplied') },
  ];
  return (
    <nav aria-label={t('staff_coupons.tabs.label')} className="border-b border-slate-200">
      <ul className="-mb-px flex gap-4">
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink
              to={tab.to}
              end
              className={({ isActive }) =>
                `inline-flex border-b-2 px-1 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-500 ${
                  isActive
                    ? 'border-brand-500 text-brand-700'
                    : 'border-transparent text-slate-600 hover:text-slate-900'
                }`
              }
            >
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
