import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { jobsPlugin } from './jobs-plugin.ts';
import { SCHEDULED_JOBS, type ScheduledJob } from './scheduled-jobs.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done()` holds (timers run late on a busy machine), failing after 5 s. */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await sleep(5);
  }
}

async function appWith(jobs: ScheduledJob[]) {
  const app = Fastify({ logger: false });
  await app.register(jobsPlugin, { jobs });
  return app;
}

describe('the job timers', () => {
  it('run nothing before the app is ready, then every period until close', async () => {
    let runs = 0;
    const app = await appWith([
      {
        name: 'tick',
        firstRunMs: 0,
        everyMs: 20,
        run: async () => {
          runs += 1;
        },
      },
    ]);
    await sleep(60);
    expect(runs).toBe(0);
    await app.ready();
    await until(() => runs >= 3);
    await app.close();
    const atClose = runs;
    await sleep(60);
    expect(runs).toBe(atClose);
  });

  it('skip a turn while the last run is going, and wait for it on close', async () => {
    let started = 0;
    let finished = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const app = await appWith([
      {
        name: 'slow',
        firstRunMs: 0,
        everyMs: 10,
        run: async () => {
          started += 1;
          await gate;
          finished += 1;
        },
      },
    ]);
    await app.ready();
    await until(() => started === 1);
    await sleep(60);
    expect(started).toBe(1);
    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    await sleep(30);
    expect(closed).toBe(false);
    release();
    await closing;
    expect(finished).toBe(1);
    expect(started).toBe(1);
  });

  it('keep going after a run fails', async () => {
    let runs = 0;
    const app = await appWith([
      {
        name: 'flaky',
        firstRunMs: 0,
        everyMs: 15,
        run: async () => {
          runs += 1;
          throw new Error('boom');
        },
      },
    ]);
    await app.ready();
    await until(() => runs >= 2);
    await app.close();
  });
});

it('purges deleted accounts hourly', () => {
  expect(SCHEDULED_JOBS).toContainEqual(
    expect.objectContaining({ name: 'purge-deleted-accounts', everyMs: 3_600_000 }),
  );
});
