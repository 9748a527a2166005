import type { CardView } from '#shared/contracts/billing.ts';
import type { Lang } from '#shared/locales.ts';
import { isCardExpired } from '#shared/validation/card-expiry.ts';

/** A billing date (renewal, period end, invoice) as the page's language writes it. */
export function formatBillingDate(iso: string, lang: Lang): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long' }).format(new Date(iso));
}

/** A short date for table rows. */
export function formatShortDate(iso: string, lang: Lang): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(new Date(iso));
}

/** §3 card expiry as printed on the card, with the century: 04/2028. */
export function cardExpiry(card: Pick<CardView, 'exp_month' | 'exp_year'>): string {
  return `${String(card.exp_month).padStart(2, '0')}/${card.exp_year}`;
}

/** How soon a card runs out: "Expires soon" is shown this many months ahead. */
export const EXPIRES_SOON_MONTHS = 2;

export type CardExpiryState = 'expired' | 'soon' | 'valid';

/**
 * §5 "a card is expired if the first day of its expiry month is earlier than now"; a card
 * that will be expired by that rule within two months expires soon.
 */
export function cardExpiryState(
  card: Pick<CardView, 'exp_month' | 'exp_year'>,
  now: Date = new Date(),
): CardExpiryState {
  if (isCardExpired(card.exp_month, card.exp_year, now)) return 'expired';
  const ahead = new Date(now);
  ahead.setUTCMonth(ahead.getUTCMonth() + EXPIRES_SOON_MONTHS);
  return isCardExpired(card.exp_month, card.exp_year, ahead) ? 'soon' : 'valid';
}

const BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  american_express: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  diners: 'Diners Club',
  diners_club: 'Diners Club',
  mir: 'Mir',
};

/** A card network's own name ("visa" from the gateway reads "Visa"); names are not translated. */
export function cardBrandName(brand: string): string {
  const known = BRAND_NAMES[brand.toLowerCase().replaceAll(' ', '_')];
  if (known) return known;
  return brand === '' ? brand : brand.charAt(0).toUpperCase() + brand.slice(1);
}
