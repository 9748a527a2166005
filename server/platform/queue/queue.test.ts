import { setTimeout as sleep } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { type DatabaseHandle, openDatabase, queryRows } from '../../db/client.ts';
import type { App } from '../../http/types.ts';
import { createTestApp, TEST_QUEUE_TIMINGS } from '../../test/test-app.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { until } from '../../test/wait-until.ts';
import type { Job } from './job-queue.ts';

// The durable queue on the suite's database: PGlite, or the PostgreSQL at TEST_DATABASE_URL.

interface JobRow {
  state: string;
  retry_count: number;
}

async function jobRow(app: App, id: string): Promise<JobRow | undefined> {
  const [row] = await queryRows<JobRow>(
    app.db,
    sql`select state, retry_count from pgboss.job where id = ${id}`,
  );
  return row;
}

/** The same database again, as another process would open it. */
async function openAgain(database: DatabaseHandle): Promise<DatabaseHandle> {
  if (database.driver === 'pglite') {
    // One PGlite belongs to one process: a second app in this one shares the instance.
    return { ...database, close: async () => {} };
  }
  const { connectionString } = (
    database.pool as unknown as { options: { connectionString: string } }
  ).options;
  return openDatabase({ url: connectionString, maxConnections: 4 });
}

/** The database as a restarted process finds it: PGlite from its data folder's contents. */
async function reopen(database: DatabaseHandle): Promise<DatabaseHandle> {
  if (database.driver === 'postgres') return openAgain(database);
  const dump = await database.pglite.dumpDataDir('none');
  return openDatabase({ pglite: await PGlite.create({ loadDataDir: dump }) });
}

async function appOn(database: DatabaseHandle): Promise<App> {
  const app = await buildApp(testConfig(), { jobs: [], queue: TEST_QUEUE_TIMINGS, database });
  await app.ready();
  return app;
}

describe('the job queue', async () => {
  const { app } = await createTestApp();
  const { queue } = app;

  it('runs the jobs sent to a worker, each once', async () => {
    const seen: Job[] = [];
    await queue.work('greet', async (job) => {
      seen.push(job);
    });
    const ids = await Promise.all([1, 2, 3].map((n) => queue.send('greet', { n })));
    await queue.drain();
    expect(seen.map((job) => job.data)).toEqual(
      expect.arrayContaining([{ n: 1 }, { n: 2 }, { n: 3 }]),
    );
    expect(seen.map((job) => job.id).sort()).toEqual([...ids].sort());
    expect(seen.every((job) => job.name === 'greet' && job.retryCount === 0)).toBe(true);
    expect((await jobRow(app, ids[0] as string))?.state).toBe('completed');
  });

  it('retries a failing job with back-off until it succeeds', async () => {
    const attempts: { at: number; retryCount: number }[] = [];
    await queue.work('flaky', async (job) => {
      attempts.push({ at: Date.now(), retryCount: job.retryCount });
      if (attempts.length < 3) throw new Error('gateway unavailable');
    });
    const id = await queue.send(
      'flaky',
      {},
      { retryLimit: 3, retryDelaySeconds: 1, retryBackoff: true },
    );
    await until(() => attempts.length === 3, 'the third attempt', 15_000);
    expect(attempts.map((a) => a.retryCount)).toEqual([0, 1, 2]);
    const [first, second, third] = attempts.map((a) => a.at) as [number, number, number];
    // Back-off: 1–2 s before the first retry, 2–4 s before the second (jittered).
    expect(second - first).toBeGreaterThanOrEqual(950);
    expect(third - second).toBeGreaterThanOrEqual(1_950);
    await until(async () => (await jobRow(app, id as string))?.state === 'completed');
    expect((await jobRow(app, id as string))?.retry_count).toBe(2);
  }, 20_000);

  it('sends a job once per singleton key while one waits', async () => {
    const first = await queue.send('renew', { to: 'a' }, { singletonKey: 'sub-1' });
    expect(first).toEqual(expect.any(String));
    expect(await queue.send('renew', { to: 'b' }, { singletonKey: 'sub-1' })).toBeNull();
    expect(await queue.send('renew', { to: 'c' }, { singletonKey: 'sub-2' })).toEqual(
      expect.any(String),
    );
    const ran: unknown[] = [];
    await queue.work('renew', async (job) => {
      ran.push(job.data);
    });
    await queue.drain();
    expect(ran).toEqual(expect.arrayContaining([{ to: 'a' }, { to: 'c' }]));
    expect(ran).toHaveLength(2);
    // Once it has run, the key is free again.
    expect(await queue.send('renew', { to: 'd' }, { singletonKey: 'sub-1' })).toEqual(
      expect.any(String),
    );
    await queue.drain();
    expect(ran).toHaveLength(3);
  });

  it('keeps a job until its start time', async () => {
    let ranAt = 0;
    await queue.work('later', async () => {
      ranAt = Date.now();
    });
    const sentAt = Date.now();
    await queue.send('later', {}, { startAfter: new Date(sentAt + 1_500) });
    await sleep(1_000);
    expect(ranAt).toBe(0);
    await until(() => ranAt > 0, 'the delayed job');
    expect(ranAt - sentAt).toBeGreaterThanOrEqual(1_450);
  });

  it('enqueues within a transaction: the job exists only if it commits', async () => {
    const ran: unknown[] = [];
    await queue.work('in-tx', async (job) => {
      ran.push(job.data);
    });
    await expect(
      app.db.transaction(async (tx) => {
        await queue.send('in-tx', { n: 1 }, { transaction: tx });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await app.db.transaction(async (tx) => {
      await queue.send('in-tx', { n: 2 }, { transaction: tx });
      // Held open past a poll: on PGlite the workers' polls wait behind it, nothing deadlocks.
      await sleep(700);
    });
    await until(() => ran.length > 0, 'the committed job');
    await queue.drain();
    expect(ran).toEqual([{ n: 2 }]);
  });

  it('makes a queue first used inside a transaction', async () => {
    await app.db.transaction(async (tx) => {
      expect(await queue.send('first-in-tx', {}, { transaction: tx })).toEqual(expect.any(String));
    });
    let ran = 0;
    await queue.work('first-in-tx', async () => {
      ran += 1;
    });
    await until(() => ran === 1, 'the job');
  });

  it('enqueues within a transaction while a worker of this process is still making the queue', async () => {
    let ran = 0;
    const registering = queue.work('made-meanwhile', async () => {
      ran += 1;
    });
    await app.db.transaction(async (tx) => {
      expect(await queue.send('made-meanwhile', {}, { transaction: tx })).toEqual(
        expect.any(String),
      );
    });
    await registering;
    await until(() => ran === 1, 'the job');
  });

  it('refuses a queue name pg-boss could not keep apart', async () => {
    await expect(queue.send('bad name!', {})).rejects.toThrow('invalid queue name');
  });
});

describe('a new process', () => {
  it('has its queue started once ready: a request can enqueue in its transaction at once', async () => {
    const database = await createTestDatabase();
    const app = await appOn(database);
    try {
      await app.db.transaction(async (tx) => {
        expect(await app.queue.send('at-once', {}, { transaction: tx })).toEqual(
          expect.any(String),
        );
      });
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('across a restart', async () => {
  const database = await createTestDatabase();
  let restarted: DatabaseHandle | undefined;
  afterAll(async () => {
    await restarted?.close();
    await database.close();
  });

  it('lets a running job finish on close, and runs a waiting one after the restart', async () => {
    const before = await appOn(database);
    const ranBefore: unknown[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await before.queue.work('renewal', async (job) => {
      ranBefore.push(job.data);
      if ((job.data as { slow?: boolean }).slow) await gate;
    });
    const running = (await before.queue.send('renewal', { slow: true })) as string;
    await until(() => ranBefore.length === 1, 'the slow job to start');
    const waiting = (await before.queue.send(
      'renewal',
      { period: 7 },
      { startAfter: 1 },
    )) as string;

    let closed = false;
    const closing = before.close().then(() => {
      closed = true;
    });
    await sleep(150);
    expect(closed).toBe(false);
    release();
    await closing;
    expect((await jobRow(before, running))?.state).toBe('completed');
    expect((await jobRow(before, waiting))?.state).toBe('created');

    restarted = await reopen(database);
    const after = await appOn(restarted);
    try {
      const ranAfter: Job[] = [];
      await after.queue.work('renewal', async (job) => {
        ranAfter.push(job);
      });
      await until(() => ranAfter.length === 1, 'the job sent before the restart');
      expect(ranAfter[0]).toMatchObject({ id: waiting, data: { period: 7 }, retryCount: 0 });
      await after.queue.drain();
      expect(ranAfter).toHaveLength(1);
      expect(ranBefore).toHaveLength(1);
    } finally {
      await after.close();
    }
  }, 20_000);
});

describe('a process stopping while a job runs on past its stop timeout', () => {
  it('hands the job back: another process runs it at once, as a retry', async () => {
    const database = await createTestDatabase();
    const other = await openAgain(database);
    const stopping = await appOn(database);
    const staying = await appOn(other);
    let release = () => {};
    try {
      const stuck = new Promise<void>((resolve) => {
        release = resolve;
      });
      const ranOnStopping: Job[] = [];
      await stopping.queue.work('export', async (job) => {
        ranOnStopping.push(job);
        await stuck;
      });
      const id = (await stopping.queue.send(
        'export',
        { user: 7 },
        { retryDelaySeconds: 1 },
      )) as string;
      await until(() => ranOnStopping.length === 1, 'the job to start on the stopping process');
      const ranOnStaying: Job[] = [];
      await staying.queue.work('export', async (job) => {
        ranOnStaying.push(job);
      });

      // Its stop timeout (2 s in tests) passes with the job still running: it is failed back.
      const closedAt = Date.now();
      await stopping.close();
      expect((await jobRow(staying, id))?.state).toMatch(/^(retry|active|completed)$/);
      await until(() => ranOnStaying.length === 1, 'the job handed to the other process', 8_000);
      expect(ranOnStaying[0]).toMatchObject({ id, data: { user: 7 }, retryCount: 1 });
      // Long before pg-boss would have expired it (15 minutes).
      expect(Date.now() - closedAt).toBeLessThan(10_000);
    } finally {
      release();
      await staying.close();
      await other.close();
      await database.close();
    }
  }, 30_000);
});

describe('two app instances on one database', async () => {
  const database = await createTestDatabase();
  const other = await openAgain(database);
  const [a, b] = [await appOn(database), await appOn(other)];
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
    await other.close();
    await database.close();
  });

  it('run each job exactly once', async () => {
    const runs = new Map<string, string[]>();
    const worker = (instance: string) => async (job: Job) => {
      runs.set(job.id, [...(runs.get(job.id) ?? []), instance]);
      await sleep(5);
    };
    await a.queue.work('charge', worker('a'), { concurrency: 2 });
    await b.queue.work('charge', worker('b'), { concurrency: 2 });
    const sent = await Promise.all(
      Array.from({ length: 30 }, (_, n) => (n % 2 ? a : b).queue.send('charge', { n })),
    );
    await until(() => runs.size === 30, 'every job to run', 15_000);
    await Promise.all([a.queue.drain(), b.queue.drain()]);
    await sleep(300);
    expect([...runs.keys()].sort()).toEqual([...sent].sort());
    expect([...runs.values()].every((by) => by.length === 1)).toBe(true);
  });

  it('run a schedule once per tick across both', async () => {
    // A run per minute is right, so the test keeps within one: near a minute's end it waits.
    const second = new Date().getUTCSeconds();
    if (second >= 48) await sleep((60 - second) * 1_000 + 200);
    const runs: string[] = [];
    for (const [name, instance] of [
      ['a', a],
      ['b', b],
    ] as const) {
      await instance.queue.work('minutely', async () => {
        runs.push(name);
      });
      await instance.queue.schedule('minutely', '* * * * *', { report: 'usage' });
    }
    await until(() => runs.length > 0, 'the scheduled job', 8_000);
    // Both processes check the schedule every second meanwhile.
    await sleep(2_500);
    expect(runs).toHaveLength(1);
    await a.queue.unschedule('minutely');
  }, 30_000);
});

describe("at the product's polling", () => {
  it('takes a job sent in a transaction when woken after the commit, not at the next poll', async () => {
    const database = await createTestDatabase();
    // No polling of the tests': the product's, which looks for jobs every 10 s.
    const app = await buildApp(testConfig(), {
      jobs: [],
      queue: { stopTimeoutMs: 2_000 },
      database,
    });
    await app.ready();
    try {
      const ran: number[] = [];
      await app.queue.work('woken', async () => {
        ran.push(Date.now());
      });
      // The worker's first look, as it starts, has found nothing by now.
      await sleep(500);
      await app.db.transaction((tx) => app.queue.send('woken', {}, { transaction: tx }));
      await sleep(1_000);
      expect(ran).toHaveLength(0);
      const woken = Date.now();
      app.queue.wake('woken');
      await until(() => ran.length === 1, 'the woken job', 5_000);
      expect((ran[0] as number) - woken).toBeLessThan(2_000);
    } finally {
      await app.close();
      await database.close();
    }
  }, 15_000);
});
