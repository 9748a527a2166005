import type { Books } from './books.ts';
import { SandboxRequestError } from './sandbox-errors.ts';
import type {
  CardDetails,
  SandboxCard,
  SandboxCustomer,
  SandboxSubscription,
  SandboxToken,
} from './sandbox-objects.ts';

// Card tokens and saved cards. A token stands for what the card form collected (Stripe.js
// does this in the browser): our API only ever sees its id, and it can be spent once.

const TOKEN_LIFETIME_MS = 15 * 60_000;

/** Subscriptions whose renewals a customer's default card pays. */
const RUNNING: readonly SandboxSubscription['status'][] = ['active', 'past_due', 'paused'];

export function createToken(books: Books, card: CardDetails, name: string): SandboxToken {
  const expiresAt = new Date(books.now().getTime() + TOKEN_LIFETIME_MS).toISOString();
  return books.create('token', { card, name, usedAt: null, expiresAt });
}

/** The card details behind a token, which can never be used again. */
export async function spendToken(books: Books, tokenId: string): Promise<CardDetails> {
  const token = await books.get('token', tokenId, { lock: true });
  if (token.usedAt !== null) {
    throw new SandboxRequestError('token_used', `Token ${tokenId} was already used`);
  }
  if (Date.parse(token.expiresAt) <= books.now().getTime()) {
    throw new SandboxRequestError('token_expired', `Token ${tokenId} has expired`);
  }
  books.change(token, { usedAt: books.now().toISOString() });
  return token.card;
}

/** A card of this customer that is still attached. */
export async function attachedCard(
  books: Books,
  customerId: string,
  cardId: string,
): Promise<SandboxCard> {
  const card = await books.get('card', cardId, { lock: true });
  if (card.customer !== customerId || card.detached) {
    throw new SandboxRequestError('resource_missing', `No such card for this customer: ${cardId}`);
  }
  return card;
}

/** Saves a card with the customer, without telling us yet (see announceCard). */
export function saveCard(books: Books, customer: SandboxCustomer, details: CardDetails) {
  return books.create('card', {
    ...details,
    customer: customer.id,
    isDefault: false,
    detached: false,
  });
}

export function announceCard(books: Books, card: SandboxCard): void {
  books.emit('payment_method.attached', { card });
}

/**
 * Makes `card` the customer's default: the one renewals are charged to from now on, so the
 * running subscriptions follow it.
 */
export async function makeDefault(
  books: Books,
  customer: SandboxCustomer,
  card: SandboxCard | null,
): Promise<void> {
  if (customer.defaultCard === (card?.id ?? null) && (card === null || card.isDefault)) return;
  const previous = customer.defaultCard
    ? await books.find('card', customer.defaultCard, { lock: true })
    : null;
  books.change(customer, { defaultCard: card?.id ?? null });
  if (previous && previous.id !== card?.id && !previous.detached) {
    books.change(previous, { isDefault: false });
    books.emit('payment_method.updated', { card: previous });
  }
  if (card) {
    books.change(card, { isDefault: true });
    books.emit('customer.default_payment_method_changed', { card });
  }
  const subscriptions = await books.list('subscription', customer.id, { lock: true });
  for (const subscription of subscriptions) {
    if (!RUNNING.includes(subscription.status) || subscription.card === (card?.id ?? null)) {
      continue;
    }
    books.change(subscription, { card: card?.id ?? null });
    books.emit('customer.subscription.updated', { subscription });
  }
}

/** The customer's attached cards, the default first, then the newest. */
export async function cardsOf(books: Books, customerId: string): Promise<SandboxCard[]> {
  const cards = await books.list('card', customerId);
  return cards
    .filter((card) => !card.detached)
    .sort(
      (a, b) =>
        Number(b.isDefault) - Number(a.isDefault) ||
        b.createdAt.localeCompare(a.createdAt) ||
        b.id.localeCompare(a.id),
    );
}

/** The card a subscription's charges go to: its own, else the customer's default. */
export async function cardToCharge(
  books: Books,
  subscription: SandboxSubscription,
  explicitCardId?: string | null,
): Promise<SandboxCard | null> {
  const customer = await books.get('customer', subscription.customer);
  for (const id of [explicitCardId, subscription.card, customer.defaultCard]) {
    if (!id) continue;
    const card = await books.find('card', id);
    if (card && !card.detached && card.customer === customer.id) return card;
    if (id === explicitCardId) throw new SandboxRequestError('resource_missing', `No card ${id}`);
  }
  return null;
}
