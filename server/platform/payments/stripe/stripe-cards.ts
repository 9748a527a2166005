import type Stripe from 'stripe';
import type { CardVault, GatewayCard } from '../gateway.ts';
import { idOf } from './stripe-client.ts';
import { asking, declineOf, gatewayFailure } from './stripe-errors.ts';
import { cardSnapshot } from './stripe-snapshots.ts';

// §3 card sources at Stripe: the customer's card PaymentMethods, the default being the
// customer's invoice_settings.default_payment_method, and each running subscription's
// default_payment_method kept on it (what renewals are charged to).

async function defaultCardOf(stripe: Stripe, customerRef: string): Promise<string | null> {
  const customer = await asking('read a customer', () => stripe.customers.retrieve(customerRef));
  if (customer.deleted) return null;
  return idOf(customer.invoice_settings.default_payment_method);
}

/** One card as it is now (null: gone, or no longer any customer's). */
export async function readCard(stripe: Stripe, cardRef: string): Promise<GatewayCard | null> {
  const method = await asking('read a card', () => stripe.paymentMethods.retrieve(cardRef));
  const customerRef = idOf(method.customer);
  if (!customerRef) return null;
  const readAt = new Date();
  return cardSnapshot(method, customerRef, await defaultCardOf(stripe, customerRef), readAt);
}

async function listCards(stripe: Stripe, customerRef: string): Promise<GatewayCard[]> {
  const defaultRef = await defaultCardOf(stripe, customerRef);
  const readAt = new Date();
  const cards: GatewayCard[] = [];
  try {
    for await (const method of stripe.customers.listPaymentMethods(customerRef, {
      type: 'card',
      limit: 100,
    })) {
      cards.push(cardSnapshot(method, customerRef, defaultRef, readAt));
    }
  } catch (error) {
    throw gatewayFailure(error, 'list cards');
  }
  // The default card is listed first (§3).
  return cards.sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
}

/**
 * The customer's default card, and their running subscriptions' too: a subscription's own
 * default_payment_method (Checkout and a start with a saved card set one) comes before the
 * customer's, so without it renewals would go on charging the old card.
 */
async function makeDefault(stripe: Stripe, customerRef: string, cardRef: string) {
  await asking('set the default card', () =>
    stripe.customers.update(customerRef, {
      invoice_settings: { default_payment_method: cardRef },
    }),
  );
  const moving: string[] = [];
  try {
    // Without a status Stripe lists every subscription but the canceled ones.
    for await (const subscription of stripe.subscriptions.list({
      customer: customerRef,
      limit: 100,
    })) {
      const charged = idOf(subscription.default_payment_method);
      if (subscription.status !== 'incomplete_expired' && charged && charged !== cardRef) {
        moving.push(subscription.id);
      }
    }
  } catch (error) {
    throw gatewayFailure(error, 'list subscriptions');
  }
  for (const ref of moving) {
    await asking('move a subscription to the default card', () =>
      stripe.subscriptions.update(ref, { default_payment_method: cardRef }),
    );
  }
}

export function stripeCardVault(stripe: Stripe): CardVault {
  return {
    /**
     * `token` is a PaymentMethod id (pm_…), as Stripe.js or Checkout in setup mode make
     * them: attaching it is when Stripe checks the card with its bank.
     */
    async add(customerRef, token, options) {
      let method: Stripe.PaymentMethod;
      try {
        method = await stripe.paymentMethods.attach(token, { customer: customerRef });
      } catch (error) {
        const decline = declineOf(error);
        if (decline) return { kind: 'declined', decline };
        throw gatewayFailure(error, 'save a card');
      }
      if (options.makeDefault) await makeDefault(stripe, customerRef, method.id);
      const card = await readCard(stripe, method.id);
      if (!card) throw new Error(`card ${method.id} left its customer at once`);
      return { kind: 'added', card };
    },
    async update(cardRef, expiry) {
      await asking('change a card', () =>
        stripe.paymentMethods.update(cardRef, {
          card: { exp_month: expiry.expMonth, exp_year: expiry.expYear },
        }),
      );
      const card = await readCard(stripe, cardRef);
      if (!card) throw new Error(`card ${cardRef} belongs to no customer`);
      return card;
    },
    async remove(cardRef) {
      await asking('remove a card', () => stripe.paymentMethods.detach(cardRef));
    },
    async setDefault(customerRef, cardRef) {
      await makeDefault(stripe, customerRef, cardRef);
      return listCards(stripe, customerRef);
    },
    list: (customerRef) => listCards(stripe, customerRef),
  };
}
