import { afterAll, describe, expect, it } from 'vitest';
import { currentSubscriptionEndpoint } from '#shared/contracts/current-subscription.ts';
import {
  accountActions,
  SERVICE_ID_LIST,
  type ServiceId,
  SUBSCRIPTION_STATUSES,
  type SubscriptionStatus,
} from '#shared/subscription/actions.ts';
import { invoices, products, subscriptions } from '../../db/schema/index.ts';
import { endpointClient } from '../../test/api-client.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';

// §4 "Account actions offered", written out here as the spec words it, checked against real
// subscription rows: each row is stored, read back through the current-subscription call the
// browser's guards and menus use, and judged by the shared rules.
function specTable(
  status: SubscriptionStatus,
  service: ServiceId,
  onetime: boolean,
  finalizing: boolean,
) {
  const cardOrPaypal = service === 1 || service === 2;
  return {
    upgrade:
      (status === 'active' && cardOrPaypal && !finalizing) ||
      (status === 'active' && (service === 4 || service === 6) && onetime) ||
      ((status === 'paused' || status === 'canceled') && cardOrPaypal && !onetime),
    reactivate:
      ((status === 'expired' || status === 'refunded') && (cardOrPaypal || service === 4)) ||
      ((status === 'expired' || status === 'refunded') && service === 6 && onetime),
    bonusUpgrade:
      service === 5 &&
      !onetime &&
      (status === 'active' || status === 'expired' || status === 'refunded'),
    membership: true,
    fixPaymentMethod:
      ((status === 'on_hold' || status === 'failed') && cardOrPaypal && !onetime) ||
      (status === 'failed' && service === 4 && !onetime),
  };
}

describe('§4 account actions on stored subscriptions', async () => {
  const { app } = await createTestApp();
  afterAll(() => app.close());
  const call = endpointClient(app);
  const [plan] = await app.db
    .insert(products)
    .values({
      serviceId: 1,
      plan: 'standard',
      name: 'Monthly',
      amount: 1000,
      currency: 'USD',
      interval: 'month',
    })
    .returning();

  const cases = SUBSCRIPTION_STATUSES.flatMap((status) =>
    SERVICE_ID_LIST.flatMap((service) =>
      [false, true].flatMap((onetime) =>
        [false, true].map((finalizing) => ({ status, service, onetime, finalizing })),
      ),
    ),
  );

  it(`offers exactly the spec's actions in all ${cases.length} cases`, async () => {
    const wrong: string[] = [];
    for (const { status, service, onetime, finalizing } of cases) {
      const { user, cookie } = await signedInUser(app);
      const [row] = await app.db
        .insert(subscriptions)
        .values({
          userId: user.id,
          gateway: 'sandbox',
          gatewayRef: `sub_table_${user.id}`,
          serviceId: service,
          productId: plan?.id as number,
          status,
          onetime,
          paymentMethodType: 'card',
          currency: 'USD',
          amount: 1000,
          gatewayUpdatedAt: new Date(),
        })
        .returning();
      const base = {
        userId: user.id,
        subscriptionId: row?.id as number,
        gateway: 'sandbox' as const,
        currency: 'USD',
        subtotal: 1000,
        total: 1000,
        lang: 'en',
        buyer: { name: '', email: '', lines: [] },
        gatewayUpdatedAt: new Date(),
      };
      await app.db.insert(invoices).values({
        ...base,
        gatewayRef: `in_paid_${user.id}`,
        status: 'paid',
        number: `T-${user.id}`,
        issuedAt: new Date(Date.now() - 60_000),
      });
      if (finalizing)
        await app.db
          .insert(invoices)
          .values({ ...base, gatewayRef: `in_next_${user.id}`, status: 'finalizing' });

      const answer = await call(currentSubscriptionEndpoint, { cookie });
      expect(answer.status).toBe(200);
      expect(answer.data.last_invoice_finalizing).toBe(finalizing);
      const offered = accountActions(answer.data.subscription, answer.data.last_invoice_finalizing);
      const expected = specTable(status, service, onetime, finalizing);
      if (JSON.stringify(offered) !== JSON.stringify(expected)) {
        wrong.push(
          `${status} service ${service} ${onetime ? 'one-time' : 'recurring'}${finalizing ? ' finalizing' : ''}: ${JSON.stringify(offered)}`,
        );
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers no subscription for a customer who never paid', async () => {
    const { cookie } = await signedInUser(app);
    const answer = await call(currentSubscriptionEndpoint, { cookie });
    expect(answer.data).toEqual({ subscription: null, last_invoice_finalizing: false });
  });
});
