import type { Books } from './books.ts';
import type {
  SandboxCustomer,
  SandboxInvoice,
  SandboxPayment,
  SandboxSubscription,
} from './sandbox-objects.ts';

// Every change takes its rows' locks in one order — customer, subscription, invoice,
// payment, then cards — so two transactions never wait on each other in a circle. Locking
// the customer first also makes one customer's requests (a renewal, a card change, a
// confirmation) take turns, which is all a stand-in needs.

export async function lockSubscription(
  books: Books,
  id: string,
): Promise<{ customer: SandboxCustomer; subscription: SandboxSubscription }> {
  const seen = await books.get('subscription', id);
  const customer = await books.get('customer', seen.customer, { lock: true });
  const subscription = await books.get('subscription', id, { lock: true });
  return { customer, subscription };
}

export async function lockInvoice(
  books: Books,
  id: string,
): Promise<{
  customer: SandboxCustomer;
  subscription: SandboxSubscription | null;
  invoice: SandboxInvoice;
}> {
  const seen = await books.get('invoice', id);
  const customer = await books.get('customer', seen.customer, { lock: true });
  const subscription = seen.subscription
    ? await books.get('subscription', seen.subscription, { lock: true })
    : null;
  const invoice = await books.get('invoice', id, { lock: true });
  return { customer, subscription, invoice };
}

export async function lockPayment(books: Books, id: string) {
  const seen = await books.get('payment', id);
  const locked = await lockInvoice(books, seen.invoice);
  const payment: SandboxPayment = await books.get('payment', id, { lock: true });
  return { ...locked, payment };
}
