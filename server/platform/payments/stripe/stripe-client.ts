import Stripe from 'stripe';
import type { StripeSettings } from '#shared/billing/gateway-settings.ts';

/**
 * The official SDK's client. `apiUrl` (tests: the stand-in) becomes its host, port and
 * protocol; unset, the SDK talks to api.stripe.com. The SDK retries network failures and
 * 409/5xx itself, sending the same idempotency key each time, so a few retries are safe.
 */
export function stripeClient(settings: StripeSettings): Stripe {
  const config: Stripe.StripeConfig = {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'vpn-billing' },
  };
  if (settings.apiUrl) {
    const url = new URL(settings.apiUrl);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    config.host = url.hostname;
    config.port = url.port || (protocol === 'http' ? 80 : 443);
    config.protocol = protocol;
  }
  return new Stripe(settings.secretKey, config);
}

/** Stripe's amounts are in lower-case ISO codes; ours in upper case. */
export const stripeCurrency = (currency: string) => currency.toLowerCase();
export const ourCurrency = (currency: string) => currency.toUpperCase();

/** An expandable field's id, whether Stripe sent the id or the object. */
export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : value.id;
}

export const fromUnix = (seconds: number | null | undefined): Date | null =>
  seconds ? new Date(seconds * 1000) : null;
