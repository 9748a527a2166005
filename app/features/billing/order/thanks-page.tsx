import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { billingEndpoints, type SubscriptionDetail } from '#shared/contracts/billing.ts';
import { endpointUrl } from '#shared/contracts/endpoint.ts';
import { formatMoney } from '#shared/money.ts';
import { call } from '../../../api/client.ts';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { RouteLink, useRoutePath } from '../../../layout/route-link.tsx';
import { useSession } from '../../../session/session-store.ts';
import { Spinner } from '../../../ui/spinner.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { billingKeys, isSubscriptionMissing } from './order-api.ts';
import { recallChoice, writeChoice } from './order-choice.ts';

/** The payment's webhook may reach the server a moment after the customer reaches this page. */
export const THANKS_POLL_MS = 1_000;
export const THANKS_POLLS = 8;

const linkClass =
  'inline-flex min-h-10 items-center justify-center rounded-lg px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500';

const settled = (subscription: SubscriptionDetail | null | undefined) =>
  subscription?.exists !== false && subscription?.status === 'active';

/** While a crypto payment awaits the network, both are asked again at this pace. */
export const CRYPTO_POLL_MS = 5_000;

function useNewSubscription(userId: number, awaitingNetwork: boolean) {
  const queryKey = [...billingKeys.subscription(userId), 'thanks'];
  const polls = useQueryClient().getQueryState(queryKey)?.dataUpdateCount ?? 0;
  const query = useQuery({
    queryKey,
    queryFn: async ({ signal }) => {
      try {
        return (await call(billingEndpoints.subscription, {}, { signal })).subscription;
      } catch (error) {
        if (isSubscriptionMissing(error)) return null;
        throw error;
      }
    },
    staleTime: 0,
    // Asked again each second until it is there and active, for a few seconds at most.
    refetchInterval: (query) => {
      if (settled(query.state.data)) return false;
      if (awaitingNetwork) return CRYPTO_POLL_MS;
      return query.state.dataUpdateCount >= THANKS_POLLS ? false : THANKS_POLL_MS;
    },
  });
  return { ...query, polls };
}

/** §3 crypto approval pending: asked once the subscription is not there at once. */
function usePendingPayment(userId: number, enabled: boolean) {
  return useQuery({
    queryKey: [...billingKeys.subscription(userId), 'pending-payment'],
    queryFn: ({ signal }) => call(billingEndpoints.pendingPayment, {}, { signal }),
    enabled,
    refetchInterval: (query) =>
      query.state.data?.crypto_approval_pending ? CRYPTO_POLL_MS : false,
  });
}

/** §2 order-received.thanks: the plan just bought and when it renews. */
export function ThanksPage() {
  return (
    <QueryProvider>
      <Thanks />
    </QueryProvider>
  );
}

function Thanks() {
  const { t } = useTranslation();
  const lang = useLang();
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const userId = useSession((session) => session.user?.id) ?? 0;
  const [awaitingNetwork, setAwaitingNetwork] = useState(false);
  const subscription = useNewSubscription(userId, awaitingNetwork);
  const pending = usePendingPayment(userId, !subscription.isPending && !settled(subscription.data));
  const cryptoPending = pending.data?.crypto_approval_pending === true;
  if (cryptoPending !== awaitingNetwork) setAwaitingNetwork(cryptoPending);
  const invoice = Number(search.get('invoice'));
  const failed = search.get('outcome') === 'failed';

  if (failed) return <NotConfirmed />;

  const data = subscription.data;
  const waiting =
    subscription.isPending ||
    (!settled(data) && subscription.polls < THANKS_POLLS && !subscription.isError);
  const date = (iso: string | null) =>
    iso ? new Intl.DateTimeFormat(lang, { dateStyle: 'long' }).format(new Date(iso)) : null;
  const end = date(data?.current_period_end ?? null);
  const lastsUntilEnd = data?.onetime || data?.cancel_at_period_end;

  return (
    <Frame title={t('checkout.thanks.title')}>
      <div aria-live="polite" data-testid="thanks-subscription">
        {data && data.exists !== false ? (
          <dl className="grid gap-3 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-6">
            <dt className="text-slate-600">{t('checkout.thanks.plan')}</dt>
            <dd className="font-medium text-slate-900" data-testid="thanks-plan">
              {data.plan.name}
            </dd>
            {end && (
              <>
                <dt className="text-slate-600">
                  {lastsUntilEnd ? t('checkout.thanks.access_until') : t('checkout.thanks.renews')}
                </dt>
                <dd className="font-medium text-slate-900" data-testid="thanks-renewal">
                  {lastsUntilEnd
                    ? end
                    : t('checkout.thanks.renews_value', {
                        date: end,
                        amount: formatMoney({ amount: data.amount, currency: data.currency }, lang),
                      })}
                </dd>
              </>
            )}
          </dl>
        ) : cryptoPending ? (
          <p
            className="flex items-center gap-3 text-sm text-slate-700"
            data-testid="crypto-pending"
          >
            <Spinner size="sm" decorative />
            {t('checkout.thanks.crypto_pending')}
          </p>
        ) : waiting ? (
          <p className="flex items-center gap-3 text-sm text-slate-700">
            <Spinner size="sm" decorative />
            {t('checkout.thanks.confirming')}
          </p>
        ) : (
          <p className="text-sm text-slate-700">{t('checkout.thanks.pending')}</p>
        )}
      </div>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        <RouteLink
          name="billing.membership2"
          className={`${linkClass} bg-brand-500 text-white hover:bg-brand-600`}
        >
          {t('checkout.thanks.membership')}
        </RouteLink>
        <RouteLink
          name="billing.invoices"
          className={`${linkClass} border border-[#dfe1e6] bg-white text-slate-800 hover:bg-slate-50`}
        >
          {t('checkout.thanks.invoices')}
        </RouteLink>
        {Number.isInteger(invoice) && invoice > 0 && (
          <a
            href={endpointUrl(billingEndpoints.invoicePdf.url, { invoice_id: invoice })}
            target="_blank"
            rel="noopener"
            className={`${linkClass} text-brand-600 hover:bg-brand-50`}
          >
            {t('checkout.thanks.invoice_pdf')}
          </a>
        )}
      </div>
      <div className="mt-8 rounded-xl bg-slate-50 p-4 text-sm">
        <h2 className="font-semibold text-slate-900">{t('checkout.thanks.apps_title')}</h2>
        <p className="mt-1 text-slate-600">{t('checkout.thanks.apps_text')}</p>
        <RouteLink
          name="home"
          className="mt-2 inline-block font-medium text-brand-600 underline-offset-2 hover:underline"
        >
          {t('checkout.thanks.apps_link')}
        </RouteLink>
      </div>
    </Frame>
  );
}

/** Back from the bank's check without a confirmation: the way back to the order, as chosen. */
function NotConfirmed() {
  const { t } = useTranslation();
  const orderPath = useRoutePath('billing.order2');
  const [choice] = useState(recallChoice);
  const search = writeChoice(choice).toString();
  return (
    <Frame title={t('order.not_confirmed_title')}>
      <p className="text-slate-700">{t('order.not_confirmed_text')}</p>
      <div className="mt-6">
        <Link
          to={search ? `${orderPath}?${search}` : orderPath}
          className={`${linkClass} bg-brand-500 text-white hover:bg-brand-600`}
        >
          {t('checkout.thanks.try_again')}
        </Link>
      </div>
    </Frame>
  );
}

function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mx-auto w-full max-w-2xl px-4 py-10 sm:py-16">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        <div className="mt-6">{children}</div>
      </div>
    </section>
  );
}
