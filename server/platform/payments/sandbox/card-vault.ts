import type { CardVault } from '../gateway.ts';
import { inBooks } from './books.ts';
import { announceCard, attachedCard, cardsOf, makeDefault, saveCard, spendToken } from './cards.ts';
import type { SandboxContext } from './sandbox-context.ts';
import { SandboxRequestError } from './sandbox-errors.ts';
import { cardSnapshot } from './snapshots.ts';
import { attachDecline, isExpired, withCentury } from './test-cards.ts';

/** The customer's saved cards at the sandbox (CardVault of gateway.ts). */
export function sandboxCardVault(context: SandboxContext): CardVault {
  return {
    add: (customerRef, token, options) =>
      inBooks(context, async (books) => {
        const customer = await books.get('customer', customerRef, { lock: true });
        const details = await spendToken(books, token);
        const refused = attachDecline(details, books.now());
        if (refused) return { kind: 'declined', decline: refused };
        const card = saveCard(books, customer, details);
        announceCard(books, card);
        if (options.makeDefault || !customer.defaultCard) await makeDefault(books, customer, card);
        return { kind: 'added', card: cardSnapshot(card) };
      }),

    update: (cardRef, expiry) =>
      inBooks(context, async (books) => {
        const card = await books.get('card', cardRef, { lock: true });
        const expYear = withCentury(expiry.expYear);
        if (!Number.isInteger(expiry.expMonth) || expiry.expMonth < 1 || expiry.expMonth > 12) {
          throw new SandboxRequestError('invalid_request', 'exp_month must be 1 to 12');
        }
        if (!Number.isInteger(expYear) || isExpired(expiry.expMonth, expYear, books.now())) {
          throw new SandboxRequestError('invalid_request', 'The new expiry date has passed');
        }
        if (card.detached) throw new SandboxRequestError('resource_missing', `No card ${cardRef}`);
        books.change(card, { expMonth: expiry.expMonth, expYear });
        books.emit('payment_method.updated', { card });
        return cardSnapshot(card);
      }),

    remove: (cardRef) =>
      inBooks(context, async (books) => {
        const found = await books.get('card', cardRef);
        // The customer first, then the card: the order every change of cards takes.
        const customer = await books.get('customer', found.customer, { lock: true });
        const card = await attachedCard(books, customer.id, cardRef);
        const wasDefault = card.isDefault;
        books.change(card, { detached: true, isDefault: false });
        books.emit('payment_method.detached', { card, deletedCard: card.id });
        if (wasDefault) {
          // The newest card left takes over, so renewals still have a card to go to.
          const [next] = await cardsOf(books, customer.id);
          await makeDefault(books, customer, next ?? null);
        }
      }),

    setDefault: (customerRef, cardRef) =>
      inBooks(context, async (books) => {
        const customer = await books.get('customer', customerRef, { lock: true });
        await makeDefault(books, customer, await attachedCard(books, customer.id, cardRef));
        return (await cardsOf(books, customer.id)).map(cardSnapshot);
      }),

    list: (customerRef) =>
      inBooks(context, async (books) => (await cardsOf(books, customerRef)).map(cardSnapshot)),
  };
}
