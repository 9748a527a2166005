import { useTranslation } from 'react-i18next';
import { billingEndpoints, type SubscriptionDetail } from '#shared/contracts/billing.ts';
import { formatMoney } from '#shared/money.ts';
import { accountActions } from '#shared/subscription/actions.ts';
import { type PeriodLine, periodLine } from '#shared/subscription/period-line.ts';
import { call } from '../../../api/client.ts';
import { LinkButton } from '../../../layout/link-button.tsx';
import { titleKey } from '../../../routes/route-titles.ts';
import { useSession } from '../../../session/session-store.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { Panel } from '../../../ui/panel.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useBusyAction } from '../../../ui/use-busy-action.ts';
import { useLang } from '../../auth/use-lang.ts';
import { SubscriptionStatusBadge } from './badge.tsx';
import {
  LATEST_INVOICES,
  useBillingRefresh,
  useInvoices,
  useSubscriptionDetail,
} from './billing-api.ts';
import { formatBillingDate } from './billing-format.ts';
import { BillingPage } from './billing-page.tsx';
import { InvoiceTable } from './invoice-table.tsx';
import { lifecycleActions } from './lifecycle-actions.ts';
import { LoadError, Skeleton } from './load-states.tsx';
import { PaymentMethod } from './payment-method.tsx';
import { planPrice } from './plan-price.ts';

/** §2 billing.membership2: the current subscription, what can be done with it, the latest invoices. */
export function MembershipPage() {
  const { t } = useTranslation();
  return (
    <BillingPage title={t(titleKey('billing.membership2'))} tabs>
      <MembershipContent />
    </BillingPage>
  );
}

function MembershipContent() {
  const { t } = useTranslation();
  const subscription = useSubscriptionDetail();
  if (subscription.isPending) {
    return (
      <Panel title={t('membership.plan_title')}>
        <Skeleton lines={5} />
      </Panel>
    );
  }
  if (subscription.isError) {
    return <LoadError error={subscription.error} onRetry={() => subscription.refetch()} />;
  }
  return (
    <>
      <PaymentWarning subscription={subscription.data} />
      <PlanPanel subscription={subscription.data} />
      <LatestInvoices />
    </>
  );
}

const PERIOD_KEYS: Record<Exclude<PeriodLine['kind'], 'none'>, string> = {
  renews: 'membership.period.renews',
  ends: 'membership.period.ends',
  ended: 'membership.period.ended',
  access_until: 'membership.period.access_until',
  paused: 'membership.period.paused',
};

/** §4 on hold (access lasts to the grace end) or failed: the payment needs the customer. */
function PaymentWarning({ subscription }: { subscription: SubscriptionDetail }) {
  const { t } = useTranslation();
  const lang = useLang();
  const finalizing = useSession((session) => session.subscription?.lastInvoiceFinalizing ?? false);
  const { status } = subscription;
  if (status !== 'on_hold' && status !== 'failed') return null;
  const canFix = accountActions(subscription, finalizing).fixPaymentMethod;
  const until = subscription.grace_until ?? subscription.current_period_end;
  return (
    <div
      role="alert"
      data-testid="payment-warning"
      className="flex flex-col gap-3 rounded-2xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900 sm:flex-row sm:items-center sm:justify-between"
    >
      <div>
        <p className="font-semibold">{t('membership.warning.title')}</p>
        <p className="mt-1">
          {status === 'on_hold' && until
            ? t('membership.warning.on_hold', { date: formatBillingDate(until, lang) })
            : t('membership.warning.failed')}
        </p>
      </div>
      {canFix && (
        <LinkButton name="billing.fix-payment-method" variant="primary" className="shrink-0">
          {t('membership.actions.fix_payment_method')}
        </LinkButton>
      )}
    </div>
  );
}

function PlanPanel({ subscription }: { subscription: SubscriptionDetail }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { plan, currency } = subscription;
  const money = (amount: number) => formatMoney({ amount, currency }, lang);
  const line = periodLine(subscription);
  const price = planPrice(
    t,
    {
      amount: subscription.amount,
      currency,
      interval: plan.interval,
      interval_count: plan.interval_count,
    },
    lang,
  );
  return (
    <Panel
      id="membership-plan"
      title={t('membership.plan_title')}
      actions={<SubscriptionStatusBadge status={subscription.status} />}
    >
      <p className="text-xl font-semibold break-words text-slate-900" data-testid="plan-name">
        {plan.name}
      </p>
      {line.kind !== 'none' && (
        <p className="mt-1 text-sm text-slate-700" data-testid="period-line">
          {t(PERIOD_KEYS[line.kind], { date: formatBillingDate(line.date, lang) })}
        </p>
      )}
      <dl className="mt-5 grid gap-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-slate-500">{t('membership.fields.price')}</dt>
          <dd className="mt-0.5 font-medium text-slate-900" data-testid="plan-price">
            {price}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">{t('membership.fields.payment_method')}</dt>
          <dd className="mt-0.5 font-medium text-slate-900" data-testid="payment-method">
            <PaymentMethod method={subscription.payment_method} />
          </dd>
        </div>
      </dl>
      {subscription.subscription_items.length > 0 && (
        <div className="mt-5">
          <h3 className="text-sm font-semibold text-slate-900">{t('membership.items_title')}</h3>
          <ul className="mt-2 divide-y divide-slate-100 text-sm" data-testid="subscription-items">
            {subscription.subscription_items.map((item) => (
              <li
                key={item.product_id}
                className="flex flex-wrap items-center justify-between gap-2 py-2"
              >
                <span className="flex min-w-0 items-center gap-2 break-words text-slate-800">
                  {item.quantity > 1
                    ? t('membership.item_quantity', { name: item.name, quantity: item.quantity })
                    : item.name}
                  {item.additional && (
                    <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600">
                      {t('membership.addon')}
                    </span>
                  )}
                </span>
                <span className="text-slate-700">{money(item.amount * item.quantity)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <MembershipActions subscription={subscription} />
    </Panel>
  );
}

type Direct = 'resume' | 'continue';

function MembershipActions({ subscription }: { subscription: SubscriptionDetail }) {
  const { t } = useTranslation();
  const lang = useLang();
  const refresh = useBillingRefresh();
  const { busy, run } = useBusyAction<Direct>();
  const finalizing = useSession((session) => session.subscription?.lastInvoiceFinalizing ?? false);
  const offered = accountActions(subscription, finalizing);
  const lifecycle = lifecycleActions(subscription);
  const end = subscription.current_period_end
    ? formatBillingDate(subscription.current_period_end, lang)
    : undefined;

  const cancel = () =>
    confirm({
      title: t('membership.cancel.title'),
      text: end ? t('membership.cancel.text', { date: end }) : t('membership.cancel.text_no_date'),
      icon: 'warning',
      actionName: 'subscription-cancel',
      yes: { label: t('membership.cancel.confirm'), variant: 'danger' },
      no: { label: t('membership.cancel.keep') },
      onConfirm: async () => {
        const answer = await call(billingEndpoints.cancel);
        notify.success('membership.done.canceled');
        await refresh(answer.subscription);
      },
    });

  const pause = () =>
    confirm({
      title: t('membership.pause.title'),
      text: end ? t('membership.pause.text', { date: end }) : t('membership.pause.text_no_date'),
      icon: 'info',
      actionName: 'subscription-pause',
      modal: 'subscription-pause',
      yes: { label: t('membership.pause.confirm') },
      onConfirm: async () => {
        const answer = await call(billingEndpoints.pause);
        notify.success('membership.done.paused');
        await refresh(answer.subscription);
      },
    });

  const direct = (action: Direct) =>
    run(action, async () => {
      const answer = await (action === 'resume'
        ? call(billingEndpoints.resume)
        : call(billingEndpoints.continue));
      notify.success(action === 'resume' ? 'membership.done.resumed' : 'membership.done.continued');
      await refresh(answer.subscription);
    });

  // Fix payment method sits in the warning above (on hold or failed), not here a second time.
  const anything =
    offered.upgrade ||
    offered.reactivate ||
    offered.bonusUpgrade ||
    Object.values(lifecycle).some(Boolean);
  if (!anything) return null;
  return (
    <div className="mt-6 border-t border-slate-100 pt-5">
      <h3 className="sr-only">{t('membership.actions.title')}</h3>
      <div className="flex flex-wrap gap-2">
        {offered.upgrade && (
          <LinkButton name="billing.upgrade2" variant="primary">
            {t('membership.actions.upgrade')}
          </LinkButton>
        )}
        {offered.reactivate && (
          <LinkButton name="billing.reactivate2" variant="primary">
            {t('membership.actions.reactivate')}
          </LinkButton>
        )}
        {offered.bonusUpgrade && (
          <LinkButton name="billing.bonus-upgrade" variant="primary">
            {t('membership.actions.bonus_upgrade')}
          </LinkButton>
        )}
        {lifecycle.resume && (
          <Button
            loading={busy === 'resume'}
            disabled={busy !== undefined && busy !== 'resume'}
            onClick={() => direct('resume')}
          >
            {t('membership.actions.resume')}
          </Button>
        )}
        {lifecycle.continue && (
          <Button
            loading={busy === 'continue'}
            disabled={busy !== undefined && busy !== 'continue'}
            onClick={() => direct('continue')}
          >
            {t('membership.actions.continue')}
          </Button>
        )}
        {lifecycle.pause && (
          <Button variant="secondary" disabled={busy !== undefined} onClick={pause}>
            {t('membership.actions.pause')}
          </Button>
        )}
        {lifecycle.cancel && (
          <Button
            variant="ghost"
            className="text-red-700 hover:bg-red-50"
            disabled={busy !== undefined}
            onClick={cancel}
          >
            {t('membership.actions.cancel')}
          </Button>
        )}
      </div>
    </div>
  );
}

/** §9 the latest 3 invoices, with the way to all of them. */
function LatestInvoices() {
  const { t } = useTranslation();
  const invoices = useInvoices(1, LATEST_INVOICES);
  return (
    <Panel
      id="membership-invoices"
      title={t('membership.invoices_title')}
      actions={
        invoices.data && invoices.data.items.length > 0 ? (
          <LinkButton name="billing.invoices">{t('membership.all_invoices')}</LinkButton>
        ) : undefined
      }
    >
      {invoices.isPending ? (
        <Skeleton lines={3} />
      ) : invoices.isError ? (
        <LoadError error={invoices.error} onRetry={() => invoices.refetch()} />
      ) : invoices.data.items.length === 0 ? (
        <p className="text-sm text-slate-600">{t('invoices.empty_title')}</p>
      ) : (
        <InvoiceTable
          caption={t('membership.invoices_title')}
          invoices={invoices.data.items.slice(0, LATEST_INVOICES)}
        />
      )}
    </Panel>
  );
}
