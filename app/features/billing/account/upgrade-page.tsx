import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  billingEndpoints,
  type ProductView,
  type SubscriptionDetail,
} from '#shared/contracts/billing.ts';
import { formatMoney } from '#shared/money.ts';
import { call } from '../../../api/client.ts';
import { LinkButton } from '../../../layout/link-button.tsx';
import { pathFor } from '../../../routes/match-route.ts';
import { titleKey } from '../../../routes/route-titles.ts';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { billingKeys, useSubscriptionDetail } from './billing-api.ts';
import { formatBillingDate } from './billing-format.ts';
import { BillingPage } from './billing-page.tsx';
import { CardDeclined } from './card-declined.tsx';
import { LoadError, Skeleton } from './load-states.tsx';
import { planPrice } from './plan-price.ts';
import { usePayment } from './use-payment.ts';

/** §2 billing.upgrade2: another plan of the same service and currency, prorated now. */
export function UpgradePage() {
  const { t } = useTranslation();
  return (
    <BillingPage
      title={t(titleKey('billing.upgrade2'))}
      description={t('upgrade.intro')}
      back={{ name: 'billing.membership2', label: t('billing_account.back_to_membership') }}
    >
      <UpgradeContent />
    </BillingPage>
  );
}

function UpgradeContent() {
  const subscription = useSubscriptionDetail();
  if (subscription.isPending) return <Skeleton lines={6} />;
  if (subscription.isError) {
    return <LoadError error={subscription.error} onRetry={() => subscription.refetch()} />;
  }
  return <ChangePlan subscription={subscription.data} />;
}

/**
 * The plans one may change to: the same service, currency and kind (recurring or one-time),
 * of any billing period (a change of period restarts the cycle now), on sale, not addons.
 */
export function otherPlans(items: readonly ProductView[], subscription: SubscriptionDetail) {
  return items
    .filter(
      (product) =>
        product.product_id !== subscription.plan.product_id &&
        product.service_id === subscription.service_id &&
        product.currency === subscription.currency &&
        product.onetime === subscription.onetime &&
        product.visible &&
        !product.disabled &&
        !product.additional &&
        !product.includable,
    )
    .sort((a, b) => a.sort - b.sort || a.amount - b.amount);
}

function ChangePlan({ subscription }: { subscription: SubscriptionDetail }) {
  const { t } = useTranslation();
  const { service_id, currency } = subscription;
  const products = useQuery({
    queryKey: billingKeys.products(service_id, currency),
    queryFn: ({ signal }) =>
      call(billingEndpoints.products, { query: { service_id, currency } }, { signal }),
  });
  const [chosen, setChosen] = useState<ProductView>();
  const [confirming, setConfirming] = useState(false);

  if (products.isPending) return <Skeleton lines={6} />;
  if (products.isError) {
    return <LoadError error={products.error} onRetry={() => products.refetch()} />;
  }
  const plans = otherPlans(products.data.items, subscription);
  if (plans.length === 0) {
    return (
      <EmptyState
        title={t('upgrade.no_plans_title')}
        text={t('upgrade.no_plans_text')}
        action={
          <LinkButton name="billing.membership2">
            {t('billing_account.back_to_membership')}
          </LinkButton>
        }
      />
    );
  }
  if (confirming && chosen) {
    return (
      <ChangePreview
        key={chosen.product_id}
        product={chosen}
        current={subscription}
        onBack={() => setConfirming(false)}
      />
    );
  }
  return (
    <PlanChoice
      plans={plans}
      current={subscription}
      chosen={chosen}
      onChoose={setChosen}
      onContinue={() => setConfirming(true)}
    />
  );
}

function PlanChoice({
  plans,
  current,
  chosen,
  onChoose,
  onContinue,
}: {
  plans: readonly ProductView[];
  current: SubscriptionDetail;
  chosen: ProductView | undefined;
  onChoose: (plan: ProductView) => void;
  onContinue: () => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const [missing, setMissing] = useState(false);
  return (
    <Panel
      id="upgrade-plans"
      title={t('upgrade.choose_title')}
      description={t('upgrade.current_plan', { plan: current.plan.name })}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!chosen) {
            setMissing(true);
            return;
          }
          onContinue();
        }}
      >
        <fieldset aria-describedby={missing ? 'upgrade-plan-error' : undefined}>
          <legend className="sr-only">{t('upgrade.choose_title')}</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            {plans.map((plan) => {
              const selected = chosen?.product_id === plan.product_id;
              return (
                <label
                  key={plan.product_id}
                  data-testid="plan-option"
                  className={`flex cursor-pointer gap-3 rounded-xl border p-4 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-500 ${selected ? 'border-brand-500 bg-brand-50' : 'border-slate-200 hover:border-slate-300'}`}
                >
                  <input
                    type="radio"
                    name="product_id"
                    value={plan.product_id}
                    checked={selected}
                    onChange={() => {
                      setMissing(false);
                      onChoose(plan);
                    }}
                    className="mt-1 size-4 shrink-0 accent-brand-500"
                  />
                  <span className="min-w-0">
                    <span className="block font-semibold break-words text-slate-900">
                      {plan.name}
                    </span>
                    <span className="block text-sm text-slate-700">{planPrice(t, plan, lang)}</span>
                    {plan.description !== '' && (
                      <span className="mt-1 block text-xs break-words text-slate-500">
                        {plan.description}
                      </span>
                    )}
                  </span>
                </label>
              );
            })}
          </div>
        </fieldset>
        {missing && (
          <p id="upgrade-plan-error" role="alert" className="mt-3 text-sm text-red-600">
            {t('upgrade.choose_required')}
          </p>
        )}
        <div className="mt-5">
          <Button type="submit">{t('upgrade.review')}</Button>
        </div>
      </form>
    </Panel>
  );
}

/** What the change costs now and later (§ changePreview), then the change itself. */
function ChangePreview({
  product,
  current,
  onBack,
}: {
  product: ProductView;
  current: SubscriptionDetail;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const preview = useQuery({
    queryKey: billingKeys.preview(product.product_id),
    queryFn: ({ signal }) =>
      call(
        billingEndpoints.changePreview,
        { query: { product_id: product.product_id } },
        { signal },
      ),
    // Proration runs by the second: always ask anew.
    staleTime: 0,
    gcTime: 0,
  });
  const payment = usePayment();

  if (preview.isPending) return <Skeleton lines={6} />;
  if (preview.isError) return <LoadError error={preview.error} onRetry={() => preview.refetch()} />;
  const quote = preview.data;
  const money = (amount: number) => formatMoney({ amount, currency: quote.currency }, lang);

  const change = () =>
    payment.pay(
      (idempotency_key) =>
        call(billingEndpoints.change, {
          body: { product_id: product.product_id, idempotency_key },
        }),
      async () => {
        notify.success('upgrade.done', { values: { plan: quote.product.name } });
        await navigate(pathFor('billing.membership2', lang));
      },
    );

  const rows: [label: string, value: string, testId: string][] = [
    [t('upgrade.preview.credit'), `−${money(quote.credit)}`, 'preview-credit'],
    [t('upgrade.preview.charge'), money(quote.charge), 'preview-charge'],
  ];
  return (
    <Panel
      id="upgrade-preview"
      title={t('upgrade.preview.title')}
      description={t('upgrade.preview.change', {
        from: current.plan.name,
        to: quote.product.name,
      })}
    >
      <dl className="divide-y divide-slate-100 text-sm" data-testid="change-preview">
        {rows.map(([label, value, testId]) => (
          <div key={testId} className="flex flex-wrap justify-between gap-2 py-2">
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-slate-900" data-testid={testId}>
              {value}
            </dd>
          </div>
        ))}
        <div className="flex flex-wrap justify-between gap-2 py-3 text-base">
          <dt className="font-semibold text-slate-900">{t('upgrade.preview.due')}</dt>
          <dd className="font-semibold text-slate-900" data-testid="preview-due">
            {money(quote.due)}
          </dd>
        </div>
      </dl>
      <p className="mt-3 text-sm text-slate-600" data-testid="preview-next">
        {quote.current_period_end
          ? t('upgrade.preview.next', {
              price: planPrice(t, { ...quote.product, amount: quote.next_amount }, lang),
              date: formatBillingDate(quote.current_period_end, lang),
            })
          : t('upgrade.preview.next_no_date', {
              price: planPrice(t, { ...quote.product, amount: quote.next_amount }, lang),
            })}
      </p>
      <CardDeclined message={payment.declined} className="mt-4" />
      <div className="mt-5 flex flex-wrap gap-3">
        <Button loading={payment.paying} onClick={change}>
          {quote.due > 0
            ? t('upgrade.confirm_pay', { amount: money(quote.due) })
            : t('upgrade.confirm')}
        </Button>
        <Button variant="secondary" disabled={payment.paying} onClick={onBack}>
          {t('upgrade.back')}
        </Button>
      </div>
    </Panel>
  );
}
