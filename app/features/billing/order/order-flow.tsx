import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useMatches, useNavigate } from 'react-router';
import type { CheckoutRequest, ProductView } from '#shared/contracts/billing.ts';
import { LOCALES } from '#shared/locales.ts';
import { formatMoney } from '#shared/money.ts';
import { failureMessage, isApiError, isCancelled } from '../../../api/api-error.ts';
import type { RouteHandle } from '../../../router.tsx';
import { pathFor } from '../../../routes/match-route.ts';
import type { RouteName } from '../../../routes/route-table.ts';
import { ensureSubscription } from '../../../session/current-subscription.ts';
import { getSession, updateSession, useSession } from '../../../session/session-store.ts';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { BillingAddressFields, useBillingAddressForm } from '../billing-address-fields.tsx';
import { CardForm, useCardForm } from '../card-form.tsx';
import { CouponField } from './coupon-field.tsx';
import {
  billingKeys,
  couponRefusal,
  fetchQuote,
  type OrderKind,
  PRODUCTS_STALE_MS,
  type QuoteSelection,
  submitOrder,
  usePendingCrypto,
  useProducts,
  useQuote,
  useSavedBillingAddress,
  useServices,
} from './order-api.ts';
import {
  couponFromCookie,
  type OrderChoice,
  readChoice,
  recallChoice,
  rememberChoice,
  writeChoice,
} from './order-choice.ts';
import { OrderSummary } from './order-summary.tsx';
import { PaymentMethodChoice, PROVIDER_NAMES } from './payment-method-choice.tsx';
import { PlanList } from './plan-list.tsx';
import { billingText } from './plan-period.ts';
import { goToProvider } from './provider-hop.ts';

export interface OrderFlowProps {
  /** Which endpoint the order goes to. */
  kind: OrderKind;
  /** Translated h1 and the line beneath it. */
  title: string;
  intro: string;
}

const THANKS: RouteName = 'order-received.thanks';
/** What the provider's page (the sandbox's 3-D Secure stand-in) comes back with. */
const RETURN_PARAMS = ['sandbox_payment', 'outcome'] as const;

/** What the page starts from: the URL, else the choice kept before a provider's page. */
function initialState(search: URLSearchParams) {
  const fromUrl = readChoice(search);
  const returned = RETURN_PARAMS.some((key) => search.has(key));
  const recalled = returned ? recallChoice() : {};
  const choice: OrderChoice = {
    plan: fromUrl.plan ?? recalled.plan,
    service: fromUrl.service ?? recalled.service,
    addon: fromUrl.addon ?? recalled.addon,
    coupon: fromUrl.coupon ?? recalled.coupon ?? couponFromCookie(),
  };
  const outcome = returned ? search.get('outcome') : null;
  return { choice, bankFailed: outcome === 'failed', bankConfirmed: outcome === 'succeeded' };
}

/**
 * The plan to show chosen: the one asked for (a click, the URL), else the one shown before,
 * else its twin on the newly chosen payment service (same period), else §3's most selected.
 */
function pickPlan(
  plans: readonly ProductView[],
  wanted: number | undefined,
  previous: ProductView | undefined,
): ProductView | undefined {
  const samePeriod = (plan: ProductView) =>
    previous !== undefined &&
    plan.interval === previous.interval &&
    plan.interval_count === previous.interval_count;
  return (
    plans.find((plan) => plan.product_id === wanted) ??
    plans.find((plan) => plan.product_id === previous?.product_id) ??
    plans.find((plan) => samePeriod(plan) && plan.plan === previous?.plan) ??
    plans.find(samePeriod) ??
    plans.find((plan) => plan.as_most_selected) ??
    plans[0]
  );
}

/**
 * The thanks page opens only to someone who has just ordered (its access check); the current
 * subscription is fetched afresh, so menus and billing rules see the new one.
 */
function allowThanks(): void {
  const session = getSession();
  updateSession({
    subscription: undefined,
    accessPages: [...session.accessPages.filter((page) => page !== THANKS), THANKS],
  });
  void ensureSubscription().catch(() => undefined);
}

/** A failure the server may not have seen (no answer, 5xx): a retry keeps the same key. */
function mayRetrySame(error: unknown): boolean {
  return !isApiError(error) || error.status === 0 || error.status >= 500;
}

/**
 * §2 order pages (order-v2, billing/order-v2, reactivate-v2, bonus-upgrade): plans for the
 * page language's currency, the plan's addon, a coupon, the quote, the payment method and
 * its card form, the billing address, and Pay. A visitor chooses, then signs up with the
 * choice kept in the URL.
 */
export function OrderFlow({ kind, title, intro }: OrderFlowProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const user = useSession((session) => session.user);
  const navigate = useNavigate();
  const location = useLocation();
  const routeName = (useMatches().at(-1)?.handle as RouteHandle | undefined)?.route.name;
  const queryClient = useQueryClient();
  const currency = LOCALES.find((locale) => locale.lang === lang)?.currency ?? 'USD';
  const [initial] = useState(() => initialState(new URLSearchParams(location.search)));

  // Plans, per payment service.
  const services = useServices();
  const [chosenService, setChosenService] = useState(initial.choice.service);
  const service =
    services.data?.find((item) => item.service_id === chosenService) ?? services.data?.[0];
  const products = useProducts(service?.service_id, currency);
  const pendingCrypto = usePendingCrypto(user?.id, service?.payment_method_type === 'crypto');
  const [wantedPlan, setWantedPlan] = useState(initial.choice.plan);
  const previousPlan = useRef<ProductView>(undefined);
  const plans = products.data?.plans ?? [];
  const plan = pickPlan(plans, wantedPlan, previousPlan.current);
  useEffect(() => {
    if (plan) previousPlan.current = plan;
  }, [plan]);

  const [addonChecked, setAddonChecked] = useState(initial.choice.addon ?? false);
  const addon =
    plan?.additional_product != null &&
    !plan.includable_product_id.includes(plan.additional_product)
      ? products.data?.addons.get(plan.additional_product)
      : undefined;
  const addonIds = useMemo(
    () => (addon && addonChecked ? [addon.product_id] : []),
    [addon, addonChecked],
  );

  // The coupon: typed, then applied once the server accepts it.
  const [couponInput, setCouponInput] = useState(initial.choice.coupon ?? '');
  const [coupon, setCoupon] = useState<string>();
  const [couponError, setCouponError] = useState<string>();
  const [couponBusy, setCouponBusy] = useState(false);
  const couponRef = useRef<HTMLInputElement>(null);
  const [focusCoupon, setFocusCoupon] = useState(0);
  const pendingCoupon = useRef(initial.choice.coupon);

  const selection = useMemo<QuoteSelection | undefined>(
    () => (plan ? { product_id: plan.product_id, addon_ids: addonIds, coupon } : undefined),
    [plan, addonIds, coupon],
  );
  const quote = useQuote(selection);
  const quoteRefusal = couponRefusal(quote.error);

  // A plan or addon change can make the applied coupon no longer apply: it goes back to the
  // field with the server's reason, and the order is priced without it.
  useEffect(() => {
    if (!quoteRefusal || !coupon) return;
    setCouponInput(coupon);
    setCoupon(undefined);
    setCouponError(quoteRefusal);
  }, [quoteRefusal, coupon]);

  useEffect(() => {
    if (focusCoupon > 0) couponRef.current?.focus();
  }, [focusCoupon]);

  const applyCoupon = useCallback(
    async (code: string, focusOnError: boolean) => {
      if (!plan) return;
      const trimmed = code.trim();
      if (trimmed === '') return;
      const next: QuoteSelection = {
        product_id: plan.product_id,
        addon_ids: addonIds,
        coupon: trimmed,
      };
      setCouponBusy(true);
      setCouponError(undefined);
      try {
        await queryClient.fetchQuery({
          queryKey: billingKeys.quote(next),
          queryFn: ({ signal }) => fetchQuote(next, signal),
          staleTime: PRODUCTS_STALE_MS,
          retry: false,
        });
        setCoupon(trimmed);
      } catch (error) {
        if (isCancelled(error)) return;
        setCouponInput(trimmed);
        setCouponError(couponRefusal(error) ?? failureMessage(error));
        if (focusOnError) setFocusCoupon((tick) => tick + 1);
      } finally {
        setCouponBusy(false);
      }
    },
    [plan, addonIds, queryClient],
  );

  // A coupon that came with the page (the link, the promotion cookie) is applied at once.
  useEffect(() => {
    const code = pendingCoupon.current;
    if (!plan || code === undefined) return;
    pendingCoupon.current = undefined;
    void applyCoupon(code, false);
  }, [plan, applyCoupon]);

  // Payment.
  const card = useCardForm({ tokenizeUrl: service?.tokenize_url, defaultName: user?.name ?? '' });
  const address = useBillingAddressForm();
  const savedAddress = useSavedBillingAddress(user?.id);
  const { prefill } = address;
  useEffect(() => prefill(savedAddress.data), [prefill, savedAddress.data]);

  const [bankFailed, setBankFailed] = useState(initial.bankFailed);
  const [formError, setFormError] = useState<string>();
  const formErrorRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (formError) formErrorRef.current?.focus();
  }, [formError]);
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  // One key per order attempt: a second click, or a retry after no answer, charges once.
  const attempt = useRef<{ key: string; signature: string; token?: string } | null>(null);

  const choice: OrderChoice = {
    plan: plan?.product_id,
    service:
      service && service.service_id !== services.data?.[0]?.service_id
        ? service.service_id
        : undefined,
    addon: addonIds.length > 0 || undefined,
    coupon,
  };

  // The URL follows the choice, so Back, a reload or a shared link keep it; the provider's
  // return parameters have been read once and go.
  const search = location.search;
  const kept = new URLSearchParams(search);
  for (const key of RETURN_PARAMS) kept.delete(key);
  const choiceSearch = writeChoice(choice, kept).toString();
  useEffect(() => {
    if (!plan) return;
    const current = new URLSearchParams(search).toString();
    if (choiceSearch !== current) void navigate({ search: choiceSearch }, { replace: true });
  }, [plan, choiceSearch, search, navigate]);

  const openThanks = useCallback(
    (invoiceId: number | null) => {
      allowThanks();
      const invoice = invoiceId === null ? '' : `?invoice=${invoiceId}`;
      return navigate(`${pathFor(THANKS, lang)}${invoice}`, { replace: invoiceId === null });
    },
    [navigate, lang],
  );

  // Back from the provider's page with the payment confirmed: on to the thanks page.
  useEffect(() => {
    if (initial.bankConfirmed && user) void openThanks(null);
  }, [initial.bankConfirmed, user, openThanks]);

  const showFailure = (error: unknown) => {
    if (!isApiError(error)) {
      setFormError(failureMessage(error));
      return;
    }
    const { validation } = error;
    let shown = false;
    const cardMessage = validation.card?.[0] ?? validation['payment.token']?.[0];
    if (cardMessage) {
      if (service?.checkout === 'card_form') card.setFieldError('number', cardMessage);
      else setFormError(cardMessage);
      shown = true;
    }
    const couponMessage = validation.coupon?.[0];
    if (couponMessage) {
      if (coupon) setCouponInput(coupon);
      setCoupon(undefined);
      setCouponError(couponMessage);
      if (!shown) setFocusCoupon((tick) => tick + 1);
      shown = true;
    }
    const productMessage = validation.product_id?.[0] ?? validation.addon_ids?.[0];
    if (productMessage) {
      setFormError(productMessage);
      void queryClient.invalidateQueries({ queryKey: ['billing', 'products'] });
      shown = true;
    }
    if (address.applyErrors(validation)) shown = true;
    if (!shown || error.info.length > 0) setFormError(error.messageKey);
  };

  const pay = async () => {
    if (sending.current || !plan || !service) return;
    setFormError(undefined);
    setBankFailed(false);
    if (!user) {
      // §2 After sign-up the visitor comes back here (continue/path), the choice in the URL.
      const next = writeChoice(choice);
      next.set('continue', routeName ?? 'order2');
      next.set('path', location.pathname);
      await navigate(`${pathFor('signup', lang)}?${next.toString()}`);
      return;
    }
    sending.current = true;
    setBusy(true);
    let leaving = false;
    try {
      const withCard = service.checkout === 'card_form';
      if (withCard && !(await card.validate())) return;
      if (!(await address.validate())) return;
      const billingAddress = address.value();
      const signature = JSON.stringify([
        choice,
        service.service_id,
        withCard ? card.form.getValues() : null,
        billingAddress,
      ]);
      if (attempt.current?.signature !== signature) {
        attempt.current = { key: crypto.randomUUID(), signature };
      }
      const current = attempt.current;
      if (withCard && !current.token) {
        const result = await card.tokenize();
        if (!result) {
          attempt.current = null;
          return;
        }
        current.token = result.token;
      }
      const body: CheckoutRequest = {
        idempotency_key: current.key,
        payment: {
          service_id: service.service_id,
          ...(current.token ? { token: current.token } : {}),
        },
        product_id: plan.product_id,
        addon_ids: addonIds,
        ...(coupon ? { coupon } : {}),
        ...(billingAddress ? { billing_address: billingAddress } : {}),
        lang,
      };
      const outcome = await submitOrder(kind, body);
      attempt.current = null;
      if (outcome.status === 'requires_action' && outcome.redirect_url) {
        // The provider's page (3-D Secure, approval) sends the customer back with the outcome.
        rememberChoice(choice);
        leaving = true;
        goToProvider(outcome.redirect_url);
        return;
      }
      leaving = true;
      await openThanks(outcome.invoice_id);
    } catch (error) {
      if (isCancelled(error)) return;
      if (!mayRetrySame(error)) attempt.current = null;
      showFailure(error);
    } finally {
      if (!leaving) {
        sending.current = false;
        setBusy(false);
      }
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void pay();
  };

  const catalogFailed = services.isError || products.isError;
  const catalogLoading =
    services.isPending || (service !== undefined && products.isPending && !products.isError);
  const noPlans = !catalogLoading && !catalogFailed && (!service || plans.length === 0);
  const total =
    quote.data && !quote.isPlaceholderData
      ? formatMoney({ amount: quote.data.total, currency: quote.data.currency }, lang)
      : undefined;
  const payLabel =
    service?.checkout === 'redirect'
      ? t('order.continue_to', { provider: PROVIDER_NAMES[service.service_id] })
      : total
        ? t('order.pay_amount', { amount: total })
        : t('order.pay');

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
      <p className="mt-2 max-w-2xl text-slate-600">{intro}</p>
      {bankFailed && (
        <div
          role="alert"
          className="mt-6 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
          data-testid="payment-not-confirmed"
        >
          <p className="font-medium">{t('order.not_confirmed_title')}</p>
          <p className="mt-1">{t('order.not_confirmed_text')}</p>
        </div>
      )}

      {catalogFailed ? (
        <div role="alert" className="mt-8 rounded-2xl border border-slate-200 bg-white">
          <EmptyState
            title={t('order.error_title')}
            text={t('order.error_text')}
            action={
              <Button
                onClick={() => {
                  if (services.isError) void services.refetch();
                  else void products.refetch();
                }}
              >
                {t('order.retry')}
              </Button>
            }
          />
        </div>
      ) : catalogLoading ? (
        <PlansSkeleton />
      ) : noPlans ? (
        <div className="mt-8 rounded-2xl border border-slate-200 bg-white">
          <EmptyState
            title={t('order.empty_title')}
            text={t('order.empty_text', { currency: products.data?.currency ?? currency })}
          />
        </div>
      ) : (
        <form
          noValidate
          onSubmit={submit}
          className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]"
          data-testid="order-form"
        >
          <div className="flex min-w-0 flex-col gap-8">
            <PlanList
              plans={plans}
              addons={products.data?.addons ?? new Map()}
              value={plan?.product_id}
              onChange={setWantedPlan}
              lang={lang}
              disabled={busy}
            />
            {addon && (
              <label className="flex cursor-pointer items-start gap-3 rounded-2xl border border-slate-200 bg-white p-4 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-500">
                <input
                  type="checkbox"
                  checked={addonChecked}
                  disabled={busy}
                  onChange={(event) => setAddonChecked(event.target.checked)}
                  className="mt-0.5 size-4 shrink-0 accent-brand-500"
                />
                <span className="min-w-0 text-sm">
                  <span className="block font-medium text-slate-900">
                    {t('order.addon.label', { name: addon.name })}
                  </span>
                  <span className="block text-slate-600">{billingText(t, addon, lang)}</span>
                  {addon.description && (
                    <span className="mt-1 block text-xs text-slate-500">{addon.description}</span>
                  )}
                </span>
              </label>
            )}
            {services.data && services.data.length > 1 && (
              <PaymentMethodChoice
                services={services.data}
                value={service?.service_id}
                onChange={(id) => {
                  setChosenService(id);
                  attempt.current = null;
                }}
                disabled={busy}
              />
            )}
            {!user ? (
              // Card numbers never go into a URL: a visitor gives them after signing up,
              // back on this page with the rest of the choice kept.
              <p className="rounded-2xl border border-slate-200 bg-white p-4 text-sm text-slate-700">
                {t('order.visitor_payment_note')}
              </p>
            ) : (
              <>
                {service?.checkout === 'card_form' ? (
                  <section aria-labelledby="card-title" className="flex flex-col gap-4">
                    <div>
                      <h2 id="card-title" className="text-base font-semibold text-slate-900">
                        {t('order.card_title')}
                      </h2>
                      <p className="mt-1 text-sm text-slate-600">{t('order.card_note')}</p>
                    </div>
                    <div className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-5">
                      <CardForm card={card} readOnly={busy} />
                    </div>
                  </section>
                ) : (
                  service && (
                    <>
                      {pendingCrypto.data && (
                        <p
                          role="status"
                          className="rounded-2xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
                          data-testid="crypto-pending-notice"
                        >
                          {t('order.crypto_pending_notice', {
                            amount: formatMoney(pendingCrypto.data, lang),
                          })}
                        </p>
                      )}
                      <p className="rounded-2xl border border-slate-200 bg-white p-4 text-sm text-slate-700">
                        {t('order.redirect_note', { provider: PROVIDER_NAMES[service.service_id] })}
                        {(service.google_pay || service.apple_pay) && (
                          <>
                            {' '}
                            {t('order.wallets_note', {
                              wallets: [
                                service.google_pay && 'Google Pay',
                                service.apple_pay && 'Apple Pay',
                              ]
                                .filter(Boolean)
                                .join(', '),
                            })}
                          </>
                        )}
                      </p>
                    </>
                  )
                )}
                <div className="rounded-2xl border border-slate-200 bg-white px-4 py-2 sm:px-5">
                  <BillingAddressFields address={address} readOnly={busy} />
                </div>
              </>
            )}
          </div>

          <aside className="min-w-0 lg:sticky lg:top-6 lg:self-start">
            <section
              aria-labelledby="summary-title"
              className="flex flex-col gap-5 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
            >
              <h2 id="summary-title" className="text-base font-semibold text-slate-900">
                {t('order.summary.title')}
              </h2>
              <OrderSummary
                quote={quote.data}
                loading={quote.isPending}
                updating={quote.isFetching && quote.isPlaceholderData}
                failed={quote.isError && !quoteRefusal}
                onRetry={() => void quote.refetch()}
                lang={lang}
              />
              <CouponField
                value={couponInput}
                onChange={(value) => {
                  setCouponInput(value);
                  setCouponError(undefined);
                }}
                applied={coupon ? (quote.data?.coupon?.code ?? coupon) : undefined}
                error={couponError}
                onApply={() => void applyCoupon(couponInput, true)}
                onRemove={() => {
                  setCoupon(undefined);
                  setCouponInput('');
                }}
                busy={couponBusy}
                disabled={busy}
                inputRef={couponRef}
              />
              {formError && (
                <div ref={formErrorRef} tabIndex={-1} className="focus:outline-none">
                  <p
                    role="alert"
                    className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
                    data-testid="order-error"
                  >
                    {t(formError)}
                  </p>
                </div>
              )}
              <Button
                type="submit"
                loading={busy || card.busy}
                disabled={!plan || !service}
                className="w-full"
                data-testid="pay"
              >
                {payLabel}
              </Button>
              {!user && <p className="text-xs text-slate-600">{t('order.visitor_note')}</p>}
            </section>
          </aside>
        </form>
      )}
    </div>
  );
}

function PlansSkeleton() {
  return (
    <div className="mt-8 grid gap-3 sm:grid-cols-2 xl:grid-cols-3" data-testid="plans-loading">
      <span className="sr-only" role="status">
        {/* Announced while the plans load. */}
        <LoadingText />
      </span>
      {[0, 1, 2].map((index) => (
        <div
          key={index}
          aria-hidden="true"
          className="flex h-40 flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-4"
        >
          <div className="h-4 w-1/2 animate-pulse rounded bg-slate-100" />
          <div className="h-7 w-2/3 animate-pulse rounded bg-slate-100" />
          <div className="h-3 w-3/4 animate-pulse rounded bg-slate-100" />
        </div>
      ))}
    </div>
  );
}

function LoadingText() {
  const { t } = useTranslation();
  return <>{t('order.loading')}</>;
}
