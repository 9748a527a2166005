/**
 * Leaves for the payment provider's page (3-D Secure, PayPal approval), which comes back to
 * the return address the server gave it. Its own module so tests can stand in for the hop.
 */
export function leaveForProvider(url: string): void {
  window.location.assign(url);
}
