// Gateways and forms hand the expiry over as numbers or as digit strings ("07", "2027").
type ExpiryPart = number | string;

const toInteger = (part: ExpiryPart): number =>
  typeof part === 'number' ? part : /^\s*\d+\s*$/.test(part) ? Number(part) : Number.NaN;

// §3: expiry years are stored with the century ("2027"); a two-digit year, as printed on the
// card and typed by people, is read as 20xx.
export function fullExpiryYear(expYear: ExpiryPart): number {
  const year = toInteger(expYear);
  return year >= 0 && year < 100 ? 2000 + year : year;
}

/**
 * §5, read literally: a card is expired when the first day of its expiry month is earlier
 * than now. So a card marked 12/2027 already counts as expired during December 2027, though
 * the networks honour it to the month's last day. That is what the spec says, so that is what
 * we do: the customer is asked for a new card a little early rather than a renewal failing.
 *
 * The month starts at midnight UTC, so the browser and the server give the same answer
 * whatever their time zones. A month outside 1–12 or a year that is not a whole number is no
 * usable expiry, and a card without one cannot be charged: it counts as expired.
 */
export function isCardExpired(
  expMonth: ExpiryPart,
  expYear: ExpiryPart,
  now: Date = new Date(),
): boolean {
  const month = toInteger(expMonth);
  const year = fullExpiryYear(expYear);
  if (!Number.isInteger(month) || month < 1 || month > 12) return true;
  if (!Number.isInteger(year) || year < 1000) return true;
  return Date.UTC(year, month - 1, 1) < now.getTime();
}
