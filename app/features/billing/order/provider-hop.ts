/**
 * Leaves the app for the provider's page (3-D Secure, PayPal approval) at the URL the order
 * answered with. Its own module so a test can stand in for a hop the browser cannot undo.
 */
export function goToProvider(url: string): void {
  window.location.assign(url);
}
