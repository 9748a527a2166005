import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../../test/wait-until.ts';
import { logDestination } from './log-destination.ts';

const folder = await mkdtemp(join(tmpdir(), 'log-destination-'));
afterAll(() => rm(folder, { recursive: true, force: true }));

const line = (n: number) => `${JSON.stringify({ level: 30, n, msg: 'request' })}\n`;

describe('logDestination', () => {
  it('gathers lines into writes of 4 KB, and writes what a second holds', async () => {
    const file = join(folder, 'gathered.log');
    const destination = logDestination(file);
    await once(destination, 'ready');
    destination.write(line(1));
    destination.write(line(2));
    // Not written line by line …
    expect(await readFile(file, 'utf8')).toBe('');
    // … but once 4 KB wait,
    let n = 3;
    while (n * line(n).length < 4096) destination.write(line(n++));
    destination.write(line(n));
    await until(async () => (await readFile(file, 'utf8')).split('\n').length > n, 'a write');
    // and the rest within a second.
    destination.write(line(n + 1));
    await until(async () => (await readFile(file, 'utf8')).includes(`"n":${n + 1}`), 'the flush');
    expect((await readFile(file, 'utf8')).split('\n').filter(Boolean)).toHaveLength(n + 1);
    destination.end();
  });

  it('is one writer for stdout, whichever app asks', () => {
    expect(logDestination()).toBe(logDestination());
  });
});
