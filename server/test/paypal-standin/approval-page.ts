import type { Subscription } from './standin-books.ts';

const html = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** PayPal's approval page, reduced to its decision: Approve or Cancel. */
export function approvalPage(subscription: Subscription, planName: string): string {
  const price = subscription.internal.price;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>PayPal stand-in: approve your subscription</title></head>
<body>
  <main>
    <h1>PayPal (stand-in)</h1>
    <p>Subscribe to <strong>${html(planName)}</strong> for
      <strong>${html(price.value)} ${html(price.currency_code)}</strong> each cycle.</p>
    <form method="post" action="/webapps/billing/subscriptions/decide">
      <input type="hidden" name="ba_token" value="${html(subscription.internal.baToken)}">
      <button type="submit" name="decision" value="approve">Approve</button>
      <button type="submit" name="decision" value="cancel">Cancel</button>
    </form>
  </main>
</body>
</html>`;
}
