import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { createTestDatabase } from '../test/test-database.ts';
import { describeWithPostgres } from '../test/test-services.ts';
import { queryRows } from './client.ts';
import { isDatabaseAway } from './errors.ts';

// PostgreSQL restarting (a failover, an upgrade) ends every connection, including one a
// transaction holds between two statements. Its 'error' event once had no listener and took
// the whole process down; now that transaction fails and the pool goes on with new ones.

describeWithPostgres('a connection the server ends while a transaction holds it', () => {
  it('fails that transaction, crashes nothing, and the next queries are served', async () => {
    const handle = await createTestDatabase();
    afterAll(() => handle.close());
    const crashes: unknown[] = [];
    const onUncaught = (error: unknown) => crashes.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      let backend = 0;
      const held = handle.db.transaction(async (tx) => {
        const [row] = await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
        backend = row?.pid ?? 0;
        // Between two statements, as a transaction waiting on other work.
        await sleep(500);
        await tx.execute(sql`select 1`);
      });
      while (backend === 0) await sleep(10);
      await handle.db.execute(sql`select pg_terminate_backend(${backend})`);
      const failure = await held.then(
        () => null,
        (error: unknown) => error,
      );
      // What the request running it answers: 503, to be tried again (error-handler.ts).
      expect(isDatabaseAway(failure)).toBe(true);
      await sleep(100);
      expect(crashes).toEqual([]);
      const [after] = await queryRows<{ ok: number }>(handle.db, sql`select 1 as ok`);
      // A query that fails on its own merits is no outage.
      const refused = await queryRows(handle.db, sql`select 1 / 0`).catch(
        (error: unknown) => error,
      );
      expect(isDatabaseAway(refused)).toBe(false);
      expect(after?.ok).toBe(1);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
