import { afterAll, describe, expect, it } from 'vitest';
import { openShop } from '../../test/billing-kit.ts';
import { createTestApp } from '../../test/test-app.ts';
import { signedInUser } from '../../test/test-sessions.ts';

// Many customers ordering at the same moment: every order touches billing's shared rows (the
// year's invoice counter, the statistics months the triggers keep). Taken in different
// orders they deadlocked on PostgreSQL and an order answered 500 (migration 0026 orders them).

describe('orders placed at the same moment', async () => {
  const { app } = await createTestApp();
  afterAll(() => app.close());
  const shop = await openShop(app);

  it('are all paid, each invoice numbered once', async () => {
    const buyers = await Promise.all(Array.from({ length: 12 }, () => signedInUser(app)));
    const answers = await Promise.all(buyers.map((buyer) => shop.buy(buyer)));
    expect(answers.map((answer) => answer.status)).toEqual(buyers.map(() => 200));
    const numbers = await app.db.query.invoices.findMany({ columns: { number: true } });
    const taken = numbers.map((row) => row.number).filter((number) => number !== null);
    expect(new Set(taken).size).toBe(taken.length);
  });
});
