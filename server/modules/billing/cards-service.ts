import { and, eq, inArray } from 'drizzle-orm';
import { BILLING_MESSAGES, type CardView } from '#shared/contracts/billing.ts';
import { RUNNING_STATUSES } from '#shared/subscription/actions.ts';
import {
  type CardSourceRow,
  cardSources,
  subscriptions,
  type UserRow,
  users,
} from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import type { PaymentGateway } from '../../platform/payments/gateway.ts';
import { publishUserUpdated } from '../identity/user-events.ts';
import { lockCardsOf, upsertCard } from './apply-snapshots.ts';
import { presentCards } from './cards-view.ts';
import { readBackSubscription } from './gateway-events.ts';
import { customerRefFor, declined } from './gateway-refs.ts';

// §3 Card sources: kept by the card gateway, mirrored in card_sources for the screens. Every
// change is asked of the gateway first and mirrored from its answer (its webhook repeats it).

export async function listCards(app: App, userId: number): Promise<CardView[]> {
  return presentCards(
    await app.db.select().from(cardSources).where(eq(cardSources.userId, userId)),
  );
}

function cardGateway(app: App): PaymentGateway & { cards: NonNullable<PaymentGateway['cards']> } {
  const gateway = app.payments.forService(1);
  if (!gateway?.cards)
    throw new AppError('unavailable', { info: BILLING_MESSAGES.serviceUnavailable });
  return gateway as PaymentGateway & { cards: NonNullable<PaymentGateway['cards']> };
}

/** The user's own card: another's, or none, is the same 404-like message under the field. */
async function ownCard(app: App, userId: number, cardId: string): Promise<CardSourceRow> {
  const [card] = await app.db
    .select()
    .from(cardSources)
    .where(and(eq(cardSources.userId, userId), eq(cardSources.gatewayRef, cardId)));
  if (!card) {
    throw new AppError('not_found', { validation: { card_id: [BILLING_MESSAGES.cardNotFound] } });
  }
  return card;
}

/** Mirrors the customer's cards as the gateway lists them now. */
export async function syncCards(
  app: App,
  gateway: PaymentGateway,
  userId: number,
  customerRef: string,
): Promise<void> {
  if (!gateway.cards) return;
  const cards = await gateway.cards.list(customerRef);
  await app.db.transaction(async (tx) => {
    for (const card of cards) await upsertCard(tx, gateway.name, userId, card);
  });
}

/** The gateway's id of one of the user's saved cards; another's (or none) is a 404. */
export async function ownCardRef(app: App, userId: number, cardId: string): Promise<string> {
  return (await ownCard(app, userId, cardId)).gatewayRef;
}

export async function addCard(app: App, user: UserRow, token: string): Promise<CardView[]> {
  const gateway = cardGateway(app);
  const customerRef = await customerRefFor(app, gateway, user);
  const existing = await listCards(app, user.id);
  const added = await gateway.cards.add(customerRef, token, { makeDefault: existing.length === 0 });
  if (added.kind === 'declined') throw declined(added.decline);
  await app.db.transaction((tx) => upsertCard(tx, gateway.name, user.id, added.card));
  return listCards(app, user.id);
}

/**
 * A card added on the processor's own page (Stripe's hosted setup): answers where to send
 * the customer; the saved card arrives by webhook, and the page lists it on return.
 */
export async function startCardSetup(
  app: App,
  user: UserRow,
  input: { idempotencyKey: string; lang: string },
): Promise<string> {
  const gateway = cardGateway(app);
  if (!gateway.startCardSetup) {
    throw new AppError('conflict', { info: BILLING_MESSAGES.actionNotAllowed });
  }
  const page = `${app.config.appUrl}/${input.lang}/billing/payment-methods`;
  return gateway.startCardSetup({
    customerRef: await customerRefFor(app, gateway, user),
    returnUrl: `${page}?card=added`,
    cancelUrl: page,
    idempotencyKey: `card-setup:${user.id}:${input.idempotencyKey}`,
  });
}

export async function updateCardExpiry(
  app: App,
  user: UserRow,
  input: { card_id: string; exp_month: number; exp_year: number },
): Promise<CardView[]> {
  const card = await ownCard(app, user.id, input.card_id);
  // §5: a card is expired if the first day of its expiry month is earlier than now.
  const now = app.payments.clock.now();
  if (
    Date.UTC(input.exp_year, input.exp_month - 1, 1) <
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)
  ) {
    throw AppError.field('exp_month', BILLING_MESSAGES.cardExpired);
  }
  const gateway = app.payments.get(card.gateway);
  if (!gateway?.cards)
    throw new AppError('unavailable', { info: BILLING_MESSAGES.serviceUnavailable });
  const updated = await gateway.cards.update(card.gatewayRef, {
    expMonth: input.exp_month,
    expYear: input.exp_year,
  });
  await app.db.transaction((tx) => upsertCard(tx, card.gateway, user.id, updated));
  return listCards(app, user.id);
}

/** A card renewals are charged to stays while a recurring subscription runs. */
export async function removeCard(app: App, user: UserRow, cardId: string): Promise<CardView[]> {
  const card = await ownCard(app, user.id, cardId);
  const running = await app.db
    .select({ ref: subscriptions.paymentMethodRef })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, user.id),
        eq(subscriptions.onetime, false),
        inArray(subscriptions.status, ['active', 'paused', 'on_hold']),
      ),
    );
  if (
    running.length > 0 &&
    (card.isDefault || running.some((row) => row.ref === card.gatewayRef))
  ) {
    throw AppError.field('card_id', BILLING_MESSAGES.cardInUse);
  }
  const gateway = app.payments.get(card.gateway);
  if (!gateway?.cards)
    throw new AppError('unavailable', { info: BILLING_MESSAGES.serviceUnavailable });
  await gateway.cards.remove(card.gatewayRef);
  await app.db.transaction(async (tx) => {
    await lockCardsOf(tx, user.id);
    await tx.delete(cardSources).where(eq(cardSources.id, card.id));
    await tx
      .update(users)
      .set({ defaultSource: null })
      .where(and(eq(users.id, user.id), eq(users.defaultSource, card.gatewayRef)));
  });
  return listCards(app, user.id);
}

/**
 * §7 users/set-source-as-default: renewals are charged to this card from now on; the user's
 * default_source changes and their pages hear it (§4 reaction 2, `Users\UserUpdated`).
 */
export async function setDefaultCard(
  app: App,
  user: UserRow,
  cardId: string,
): Promise<{ user: UserRow; items: CardView[] }> {
  const card = await ownCard(app, user.id, cardId);
  const gateway = app.payments.get(card.gateway);
  if (!gateway?.cards)
    throw new AppError('unavailable', { info: BILLING_MESSAGES.serviceUnavailable });
  const customerRef = await customerRefFor(app, gateway, user);
  const cards = await gateway.cards.setDefault(customerRef, card.gatewayRef);
  const updated = await app.db.transaction(async (tx) => {
    for (const each of cards) await upsertCard(tx, gateway.name, user.id, each);
    const [row] = await tx
      .update(users)
      .set({ defaultSource: card.gatewayRef })
      .where(eq(users.id, user.id))
      .returning();
    return row ?? user;
  });
  void publishUserUpdated(app, updated);
  await readBackRunning(app, gateway, user.id);
  return { user: updated, items: await listCards(app, user.id) };
}

/**
 * The gateway moved the running subscriptions to the new default card: their state is read
 * back, dated after the change, so an older event delivered late (the purchase's) cannot put
 * the old card back in our books. One that cannot be read now follows by its webhook.
 */
async function readBackRunning(app: App, gateway: PaymentGateway, userId: number) {
  const running = await app.db
    .select({ ref: subscriptions.gatewayRef })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        eq(subscriptions.gateway, gateway.name),
        inArray(subscriptions.status, [...RUNNING_STATUSES]),
      ),
    );
  for (const { ref } of running) {
    try {
      await readBackSubscription(app, gateway, ref);
    } catch (error) {
      app.log.warn(
        { err: error, subscription: ref },
        'subscription not read back after a card change',
      );
    }
  }
}
