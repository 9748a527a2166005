import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { RouteLink } from '../../../layout/route-link.tsx';
import type { RouteHandle } from '../../../router.tsx';
import type { RouteName } from '../../../routes/route-table.ts';
import { useSession } from '../../../session/session-store.ts';
import { useBillingLiveRefresh } from './billing-api.ts';

interface Props {
  title: string;
  /** Under the heading: what the page is for. */
  description?: ReactNode;
  /** The membership, payment methods and invoices tabs; the step pages go without. */
  tabs?: boolean;
  /** Above the heading: a way back. */
  back?: { name: RouteName; label: string };
  children: ReactNode;
}

/** The frame of a billing screen: one heading, the billing tabs, and the query cache. */
export function BillingPage({ title, description, tabs = false, back, children }: Props) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6">
      {back && (
        <RouteLink
          name={back.name}
          className="mb-4 inline-flex items-center gap-1 text-sm font-medium text-brand-600 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
        >
          <span aria-hidden="true">←</span>
          {back.label}
        </RouteLink>
      )}
      <h1 className="text-2xl font-semibold tracking-tight break-words text-slate-900">{title}</h1>
      {description !== undefined && <p className="mt-2 text-sm text-slate-600">{description}</p>}
      {tabs && <BillingTabs label={t('billing_account.tabs.label')} />}
      <QueryProvider>
        <LiveRefresh />
        <div className="mt-6 flex flex-col gap-6">{children}</div>
      </QueryProvider>
    </div>
  );
}

function LiveRefresh() {
  useBillingLiveRefresh();
  return null;
}

function BillingTabs({ label }: { label: string }) {
  const { t } = useTranslation();
  const current = (useMatches().at(-1)?.handle as RouteHandle | undefined)?.route.name;
  // §2 billing opens on the membership while a subscription exists, on the order page before.
  const subscribed = useSession((session) => Boolean(session.subscription?.current));
  const tabs: [RouteName, string][] = [
    subscribed
      ? ['billing.membership2', t('billing_account.tabs.membership')]
      : ['billing.order2', t('billing_account.tabs.order')],
    ['billing.payment-methods', t('billing_account.tabs.payment_methods')],
    ['billing.invoices', t('billing_account.tabs.invoices')],
  ];
  return (
    <nav aria-label={label} className="mt-6 border-b border-slate-200">
      <ul className="-mb-px flex gap-6 overflow-x-auto">
        {tabs.map(([name, text]) => {
          const active = current === name;
          return (
            <li key={name}>
              <RouteLink
                name={name}
                aria-current={active ? 'page' : undefined}
                className={`inline-block border-b-2 px-1 pb-3 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-brand-500 ${active ? 'border-brand-500 text-brand-700' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900'}`}
              >
                {text}
              </RouteLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
