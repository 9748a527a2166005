import { eq } from 'drizzle-orm';
import { afterAll, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { products } from '../../db/schema/index.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { describeWithRedis } from '../../test/test-services.ts';
import { until } from '../../test/wait-until.ts';
import { seedDemoCatalog } from '../billing/demo-catalog.ts';

// Two API processes on one database and one Redis: staff change a plan through A, and B,
// which had the catalog cached, sells and shows the new one at once, not 30 s later.
describeWithRedis('the catalog across processes', async (url) => {
  const database = await createTestDatabase();
  const start = () => buildApp(testConfig({ REDIS_URL: url }), { database, jobs: [] });
  const a = await start();
  const b = await start();
  await Promise.all([a.ready(), b.ready()]);
  afterAll(async () => {
    await a.close();
    await b.close();
    await database.close();
  });

  it('drops B’s cached catalog when A changes it', async () => {
    await seedDemoCatalog(a.db);
    const before = await b.catalog.onSale(1, 'USD');
    const plan = before[0]?.row;
    if (!plan) throw new Error('no plan on sale');
    await a.db.update(products).set({ name: 'Renamed by staff' }).where(eq(products.id, plan.id));
    // What the staff screens do after a change: A forgets at once and tells the others.
    a.catalog.invalidate();
    await until(
      async () => {
        const now = await b.catalog.onSale(1, 'USD');
        return now.find((item) => item.row.id === plan.id)?.row.name === 'Renamed by staff';
      },
      'B to see the renamed plan',
      5_000,
    );
  });
});
