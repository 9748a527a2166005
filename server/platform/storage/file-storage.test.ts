import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { DiskStorage, MemoryStorage } from './file-storage.ts';

const root = await mkdtemp(path.join(tmpdir(), 'storage-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const KEY = 'private/data-exports/abcdefgh12345678.zip';

async function* failingAfterOneChunk() {
  yield Buffer.from('half a file');
  throw new Error('the source broke');
}

// Streamed files (a data export's ZIP): written and read without holding them whole.
describe.each([
  ['on disk', new DiskStorage(root)],
  ['in memory', new MemoryStorage()],
])('file storage %s', (_name, storage) => {
  it('writes a stream, answers its size, and reads it back as a stream', async () => {
    const size = await storage.putStream(
      KEY,
      Readable.from([Buffer.from('PK'), Buffer.from('zip')]),
    );
    expect(size).toBe(5);
    const file = await storage.getStream(KEY);
    expect(file?.size).toBe(5);
    expect(await text(file?.stream ?? Readable.from([]))).toBe('PKzip');
    await storage.delete(KEY);
    expect(await storage.getStream(KEY)).toBeUndefined();
  });

  it('keeps nothing of a stream that failed midway', async () => {
    await expect(storage.putStream(KEY, Readable.from(failingAfterOneChunk()))).rejects.toThrow(
      'the source broke',
    );
    expect(await storage.getStream(KEY)).toBeUndefined();
  });

  it('refuses keys a path could climb with', async () => {
    await expect(
      storage.putStream('private/../../etc/passwd.zip', Readable.from([])),
    ).rejects.toThrow('invalid storage key');
  });
});

describe('the media route', () => {
  it('never serves a private file', async () => {
    const { app } = await createTestApp();
    await app.storage.putStream(KEY, Readable.from([Buffer.from('PK')]));
    const answer = await app.inject({ method: 'GET', url: `/media/${KEY}` });
    expect(answer.statusCode).toBe(404);
  });

  it('leaves no partial file behind on disk', async () => {
    expect(
      (await readdir(path.join(root, 'private', 'data-exports'))).filter((name) =>
        name.endsWith('.partial'),
      ),
    ).toEqual([]);
  });
});
