import type { CardView } from '#shared/contracts/billing.ts';
import type { CardSourceRow } from '../../db/schema/index.ts';

export function presentCard(card: CardSourceRow): CardView {
  return {
    card_id: card.gatewayRef,
    brand: card.brand,
    last4: card.last4,
    exp_month: card.expMonth,
    exp_year: card.expYear,
    default: card.isDefault,
  };
}

/** §3 "The default card is listed first", then the newest. */
export function presentCards(cards: readonly CardSourceRow[]): CardView[] {
  return [...cards]
    .sort(
      (a, b) =>
        Number(b.isDefault) - Number(a.isDefault) || b.createdAt.getTime() - a.createdAt.getTime(),
    )
    .map(presentCard);
}
