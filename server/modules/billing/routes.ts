import {
  BILLING_MESSAGES,
  billingAddress,
  billingEndpoints,
  type ServiceView,
} from '#shared/contracts/billing.ts';
import type { Endpoint } from '#shared/contracts/endpoint.ts';
import { AppError } from '../../http/app-error.ts';
import { route as declare, type Handler, type Route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import type { PaymentGateway } from '../../platform/payments/gateway.ts';
import { presentAuthUser } from '../identity/user-presenter.ts';
import {
  addCard,
  listCards,
  removeCard,
  setDefaultCard,
  startCardSetup,
  updateCardExpiry,
} from './cards-service.ts';
import { presentProduct } from './catalog.ts';
import { checkout, saveBillingAddress } from './checkout-service.ts';
import { currentSubscription, presentSubscription } from './current-subscription.ts';
import { gatewayRequestError } from './gateway-refs.ts';
import { invoicePdf, listInvoices } from './invoices-service.ts';
import { buildOrder, presentQuote } from './order.ts';
import { pendingPayment } from './pending-payment.ts';
import {
  changePlan,
  fixPayment,
  previewChange,
  subscriptionAction,
} from './subscription-actions.ts';
import { webhookRoute } from './webhook-route.ts';

/** Quotes naming a coupon, per client address: enough for a customer, slow for a guesser. */
const COUPON_CHECKS_PER_IP = { limit: 30, windowMs: 15 * 60_000 };

/** A route whose gateway refusals answer as the customer's errors, never as a 500. */
function route<E extends Endpoint>(endpoint: E, handler: Handler<E>): Route {
  return declare(endpoint, async (context) => {
    try {
      return await handler(context);
    } catch (error) {
      throw gatewayRequestError(error);
    }
  });
}

/** The services the order page offers, one per §9 service (a real gateway before the sandbox). */
function serviceViews(gateways: readonly PaymentGateway[]): ServiceView[] {
  const views: ServiceView[] = [];
  for (const { serviceId, paymentMethodType, checkoutStyle: style } of gateways) {
    // Bought in the app or granted, never on the order page.
    if (style.checkout === 'none' || views.some((view) => view.service_id === serviceId)) continue;
    views.push({
      service_id: serviceId,
      payment_method_type: paymentMethodType,
      checkout: style.checkout,
      tokenize_url: style.tokenizeUrl,
      google_pay: style.googlePay,
      apple_pay: style.applePay,
      crypto_processing: style.cryptoProcessing,
    });
  }
  return views;
}

/** §2 billing for customers and visitors: catalog, orders, subscription, cards, invoices. */
export function billingRoutes(app: App): Route[] {
  const e = billingEndpoints;
  const { catalog } = app;
  const deps = { db: app.db, catalog, payments: app.payments };

  return [
    route(e.services, () => ({ items: serviceViews(app.payments.enabled()) })),
    route(e.products, async ({ query }) => {
      const currency = query.currency ?? 'USD';
      const serviceId = query.service_id ?? 1;
      // A service no gateway sells has nothing on sale (§2 order page).
      const items = app.payments.forService(serviceId)
        ? await catalog.onSale(serviceId, currency)
        : [];
      return { currency, items: items.map(presentProduct) };
    }),
    route(e.quote, async ({ body, request }) => {
      // Coupon codes are guessable by trying: each address may check a few at a time.
      if (body.coupon) {
        await app.rateLimiter.consume([
          { name: 'coupon-ip', key: request.ip, ...COUPON_CHECKS_PER_IP },
        ]);
      }
      return presentQuote(await buildOrder(deps, body, app.payments.clock.now()));
    }),
    route(e.checkout, ({ auth, body }) => checkout(app, catalog, auth.user, body, 'new')),
    route(e.reactivate, ({ auth, body }) => checkout(app, catalog, auth.user, body, 'reactivate')),
    route(e.upgradeBonus, ({ auth, body }) => checkout(app, catalog, auth.user, body, 'bonus')),
    route(e.pendingPayment, ({ auth }) =>
      pendingPayment(app.db, auth.user.id, app.payments.clock.now()),
    ),
    route(e.subscription, async ({ auth }) => {
      const row = await currentSubscription(app.db, auth.user.id);
      if (!row) throw new AppError('not_found', { info: BILLING_MESSAGES.noSubscription });
      return { subscription: await presentSubscription(app.db, row) };
    }),
    route(e.changePreview, ({ auth, query }) =>
      previewChange(app, catalog, auth.user, query.product_id),
    ),
    route(e.change, ({ auth, body }) =>
      changePlan(app, catalog, auth.user, body.product_id, body.idempotency_key),
    ),
    route(e.cancel, ({ auth }) => subscriptionAction(app, auth.user, 'cancel')),
    route(e.resume, ({ auth }) => subscriptionAction(app, auth.user, 'resume')),
    route(e.pause, ({ auth }) => subscriptionAction(app, auth.user, 'pause')),
    route(e.continue, ({ auth }) => subscriptionAction(app, auth.user, 'continue')),
    route(e.fix, ({ auth, body }) => fixPayment(app, auth.user, body)),
    route(e.cards, async ({ auth }) => ({ items: await listCards(app, auth.user.id) })),
    route(e.cardCreate, async ({ auth, body }) => ({
      items: await addCard(app, auth.user, body.token),
    })),
    route(e.cardSetup, async ({ auth, body }) => ({
      redirect_url: await startCardSetup(app, auth.user, {
        idempotencyKey: body.idempotency_key,
        lang: body.lang,
      }),
    })),
    route(e.cardUpdate, async ({ auth, body }) => ({
      items: await updateCardExpiry(app, auth.user, body),
    })),
    route(e.cardDelete, async ({ auth, body }) => ({
      items: await removeCard(app, auth.user, body.card_id),
    })),
    route(e.setDefaultSource, async ({ auth, body }) => {
      const { user, items } = await setDefaultCard(app, auth.user, body.card_id);
      return { user: presentAuthUser(user), items };
    }),
    route(e.billingAddress, ({ auth }) => ({
      billing_address: billingAddress.parse(auth.user.billingAddress ?? {}),
    })),
    route(e.billingAddressUpdate, async ({ auth, body }) => {
      await saveBillingAddress(app, auth.user.id, body);
      return { billing_address: body };
    }),
    route(e.invoices, ({ auth, query }) => listInvoices(app, auth.user.id, query)),
    route(e.invoicePdf, async ({ auth, params, reply }) => {
      const { pdf, filename } = await invoicePdf(app, auth.user.id, params.invoice_id);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    }),
    webhookRoute(app),
  ];
}
