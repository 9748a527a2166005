import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LOCALES } from '#shared/locales.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { RouteLink } from '../../../layout/route-link.tsx';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import { groupProducts } from './plan-draft.ts';
import { PlanOrderEditor } from './plan-order-editor.tsx';
import { PLAN_TABS, type PlanTab, type PlanTabKey, planTab } from './plan-tabs.ts';
import { useIncludedNames, useManagedProducts, usePlanServices } from './use-managed-plans.ts';

/**
 * §2 /admin/order/manage-plans/{stripe,paypal,apple,cryptomus,addons,merged-addons}: the
 * order plans show in on the order page, the most selected one, the monthly rate and the
 * discounted badge, one currency at a time (the order page shows one).
 */
function ManagePlansPage({ tabKey }: { tabKey: PlanTabKey }) {
  const { t } = useTranslation();
  const tab = planTab(tabKey);
  return (
    <AdminPage title={t('staff_plans.title')}>
      <PlanTabs current={tab} />
      <ManagedPlans key={tab.key} tab={tab} />
    </AdminPage>
  );
}

/** One screen per route of the table (app/routes/screens.ts picks its own). */
export const ManagePlansPages: Record<PlanTabKey, () => React.JSX.Element> = {
  stripe: () => <ManagePlansPage tabKey="stripe" />,
  paypal: () => <ManagePlansPage tabKey="paypal" />,
  apple: () => <ManagePlansPage tabKey="apple" />,
  cryptomus: () => <ManagePlansPage tabKey="cryptomus" />,
  addons: () => <ManagePlansPage tabKey="addons" />,
  'merged-addons': () => <ManagePlansPage tabKey="merged-addons" />,
};

function PlanTabs({ current }: { current: PlanTab }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('staff_plans.tabs_label')} className="-mt-2 border-b border-slate-200">
      <ul className="flex flex-wrap gap-1">
        {PLAN_TABS.map((tab) => {
          const active = tab.key === current.key;
          return (
            <li key={tab.key}>
              <RouteLink
                name={tab.route}
                aria-current={active ? 'page' : undefined}
                className={`-mb-px inline-flex min-h-10 items-center border-b-2 px-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-500 ${active ? 'border-brand-500 text-brand-700' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
              >
                {t(tab.label)}
              </RouteLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function ManagedPlans({ tab }: { tab: PlanTab }) {
  const { t } = useTranslation();
  const lang = useLang();
  const [search] = useSearchParams();
  const services = usePlanServices();
  const shown = useMemo(
    () => (services.data ?? []).filter((service) => tab.services.includes(service.service_id)),
    [services.data, tab],
  );
  const currencies = useMemo(
    () => [...new Set(shown.flatMap((service) => service.currencies))].sort(),
    [shown],
  );
  // The URL's currency, else the page language's (what the order page would show), else any.
  const wanted = search.get('currency') ?? LOCALES.find((item) => item.lang === lang)?.currency;
  const currency = currencies.includes(wanted ?? '') ? wanted : currencies[0];
  const products = useManagedProducts(tab, currency);
  const included = useIncludedNames(tab, currency);
  const groups = useMemo(() => groupProducts(products.data ?? [], tab), [products.data, tab]);

  const failed = services.isError ? services : products.isError ? products : undefined;
  if (failed) {
    return (
      <EmptyState
        title={t('staff.kit.load_failed')}
        text={t(failureMessage(failed.error))}
        action={
          <Button variant="secondary" onClick={() => void failed.refetch()}>
            {t('staff.kit.retry')}
          </Button>
        }
      />
    );
  }
  if (services.isPending || (currency !== undefined && products.isPending)) {
    return <LoadingBlock />;
  }
  if (currency === undefined) {
    return (
      <EmptyState title={t('staff_plans.empty.no_currency')} text={t('staff_plans.empty.text')} />
    );
  }
  return (
    <PlanOrderEditor
      key={currency}
      tab={tab}
      currency={currency}
      currencies={currencies}
      groups={groups}
      services={shown}
      included={included.data}
    />
  );
}
