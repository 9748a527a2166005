import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { until } from '../../test/wait-until.ts';
import { jobsPlugin } from './jobs-plugin.ts';
import { SCHEDULED_JOBS, type ScheduledJob } from './scheduled-jobs.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

describe('in the app', async () => {
  // Test apps run no job unless given some; the product's own are the default of buildApp.
  let runs = 0;
  const tick: ScheduledJob = {
    name: 'tick',
    firstRunMs: 0,
    everyMs: 20,
    run: async () => {
      runs += 1;
    },
  };
  const { app } = await createTestApp({}, undefined, { jobs: [tick] });

  it('run the jobs buildApp is given', async () => {
    await until(() => runs >= 2, 'two runs of the job');
    await app.close();
    const atClose = runs;
    await sleep(60);
    expect(runs).toBe(atClose);
  });
});

it('purges deleted accounts hourly', () => {
  expect(SCHEDULED_JOBS).toContainEqual(
    expect.objectContaining({ name: 'purge-deleted-accounts', everyMs: 3_600_000 }),
  );
});
