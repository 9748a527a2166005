import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { gatewayCustomers, users } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import { addCard } from './cards-service.ts';
import { checkout } from './checkout-service.ts';
import { demoPlan } from './demo-catalog.ts';

/** The demo customer of the README (server/db/seed.ts). */
const DEMO_CUSTOMER = 'customer@example.com';

async function token(app: App, number: string, expMonth: number, expYear: number): Promise<string> {
  const answer = await app.inject({
    method: 'POST',
    url: '/sandbox/v1/tokens',
    payload: { number, exp_month: expMonth, exp_year: expYear, cvc: '123', name: 'Casey Customer' },
  });
  if (answer.statusCode !== 200) throw new Error(`demo card refused: ${answer.body}`);
  return (answer.json() as { id: string }).id;
}

/**
 * The demo customer buys the yearly plan through the sandbox once, as a customer would, so
 * membership, payment methods and invoices have something to show on `npm start`; a second
 * card expiring soon shows the §5 warning.
 */
export async function seedDemoBilling(app: App): Promise<void> {
  // Only where the sandbox sells cards: with a real card processor on, there is no test card.
  if (app.payments.forService(1)?.name !== 'sandbox') return;
  const [customer] = await app.db.select().from(users).where(eq(users.email, DEMO_CUSTOMER));
  if (!customer) return;
  const [known] = await app.db
    .select()
    .from(gatewayCustomers)
    .where(and(eq(gatewayCustomers.userId, customer.id), eq(gatewayCustomers.gateway, 'sandbox')));
  if (known) return;
  const plan = await demoPlan(app.db, 'USD', '1 year');
  const now = app.payments.clock.now();
  await checkout(
    app,
    app.catalog,
    customer,
    {
      product_id: plan.id,
      addon_ids: plan.additionalProductId ? [plan.additionalProductId] : [],
      payment: {
        service_id: 1,
        token: await token(app, '4242424242424242', 8, now.getUTCFullYear() + 3),
      },
      billing_address: {
        name: 'Casey Customer',
        company: '',
        line1: 'Keizersgracht 123',
        line2: '',
        city: 'Amsterdam',
        postal_code: '1015 CJ',
        region: '',
        country: 'NL',
        vat_id: '',
      },
      idempotency_key: randomUUID(),
      lang: 'en',
    },
    'new',
  );
  const soon = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  await addCard(
    app,
    customer,
    await token(app, '5555555555554444', soon.getUTCMonth() + 1, soon.getUTCFullYear()),
  );
}
