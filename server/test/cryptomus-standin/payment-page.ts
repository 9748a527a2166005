import type { StandInInvoice } from './standin-invoices.ts';

// Cryptomus's hosted payment page, reduced to what a journey needs: the amount, and buttons
// for the customer's (and the chain's) possible moves.

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function button(action: string, label: string): string {
  return `<button type="submit" name="action" value="${action}">${escapeHtml(label)}</button>`;
}

export function paymentPage(invoice: StandInInvoice): string {
  const open = !invoice.is_final;
  const seen = invoice.status === 'confirm_check';
  const back = invoice.status === 'paid' ? invoice.url_success : invoice.url_return;
  const body = !open
    ? `<p role="status">Invoice ${escapeHtml(invoice.status)}.</p>${
        back ? `<p><a href="${escapeHtml(back)}">Back to the shop</a></p>` : ''
      }`
    : seen
      ? `<p role="status">Transaction seen on the chain, waiting for network confirmations.</p>
         <form method="post">${button('confirm', 'Confirm')}</form>${
           invoice.url_success
             ? `<p><a href="${escapeHtml(invoice.url_success)}">Back to the shop</a></p>`
             : ''
         }`
      : `<form method="post">${button('pay', 'Pay')} ${button('pay_unconfirmed', 'Pay (unconfirmed)')}
         ${button('cancel', 'Cancel')}</form>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cryptomus stand-in: pay ${escapeHtml(invoice.amount)} ${escapeHtml(invoice.currency)}</title></head>
<body><main>
<h1>Pay ${escapeHtml(invoice.amount)} ${escapeHtml(invoice.currency)}</h1>
<p>Order ${escapeHtml(invoice.order_id)}</p>
${body}
</main></body></html>`;
}
