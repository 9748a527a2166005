// The confirmation page's HTML, rendered on the server: a heading, what is being paid and to
// whom, and two buttons in a plain form. No script at all (our CSP allows none inline), and
// usable by keyboard and screen reader without one.

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const STYLE = `
  body { font-family: system-ui, sans-serif; background: #f4f5f7; color: #1a1d21; margin: 0; }
  main { max-width: 26rem; margin: 4rem auto; background: #fff; border-radius: 0.75rem;
    padding: 2rem; box-shadow: 0 1px 4px rgb(0 0 0 / 0.12); }
  h1 { font-size: 1.4rem; margin: 0 0 0.5rem; }
  .mode { display: inline-block; font-size: 0.8rem; font-weight: 600; color: #7a4d00;
    background: #fff3d6; border-radius: 0.25rem; padding: 0.1rem 0.4rem; margin: 0 0 1rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 0.4rem 1rem; margin: 1.25rem 0; }
  dt { color: #4a5059; } dd { margin: 0; font-weight: 600; }
  form { display: flex; flex-wrap: wrap; gap: 0.75rem; }
  button, a.button { font: inherit; padding: 0.6rem 1rem; border-radius: 0.4rem;
    border: 1px solid #1a56db; cursor: pointer; text-decoration: none; }
  button[value=complete], a.button { background: #1a56db; color: #fff; }
  button[value=fail] { background: #fff; color: #1a56db; }
  button:focus-visible, a.button:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Sandbox payments</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="mode">Test mode: no real money moves</p>
${body}
</main>
</body>
</html>
`;
}

export interface ConfirmationDetails {
  paymentId: string;
  merchant: string;
  /** Already formatted with its currency. */
  amount: string;
  card: string;
  action: string;
}

export function confirmationPage(details: ConfirmationDetails): string {
  return page(
    'Confirm your payment',
    `<h1>Confirm your payment</h1>
<p>Your card issuer asks you to confirm this payment (this page stands in for 3-D Secure).</p>
<dl>
<dt>Merchant</dt><dd>${escapeHtml(details.merchant)}</dd>
<dt>Amount</dt><dd>${escapeHtml(details.amount)}</dd>
<dt>Card</dt><dd>${escapeHtml(details.card)}</dd>
</dl>
<form method="post" action="${escapeHtml(details.action)}">
<button type="submit" name="outcome" value="complete">Complete authentication</button>
<button type="submit" name="outcome" value="fail">Fail authentication</button>
</form>`,
  );
}

/** For a payment no longer waiting: what became of it, and the way back. */
export function settledPage(outcome: string, backTo: string | null, merchant: string): string {
  const back = backTo
    ? `<p><a class="button" href="${escapeHtml(backTo)}">Return to ${escapeHtml(merchant)}</a></p>`
    : '';
  return page(
    'Payment already confirmed',
    `<h1>This payment is no longer waiting</h1>
<p>It has already ${outcome === 'succeeded' ? 'succeeded' : 'failed'}.</p>
${back}`,
  );
}

export function notFoundPage(): string {
  return page(
    'Payment not found',
    '<h1>Payment not found</h1>\n<p>There is no payment waiting for confirmation here.</p>',
  );
}
