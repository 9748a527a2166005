import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A stored file: its bytes and the type it is served with. */
export interface StoredFile {
  data: Buffer;
  contentType: string;
}

/**
 * Where uploaded files live (DESIGN: local disk by default, object storage at scale). Keys
 * are `folder/name.ext`, made by the server, never by a client.
 */
export interface FileStorage {
  put(key: string, file: StoredFile): Promise<void>;
  get(key: string): Promise<StoredFile | undefined>;
  delete(key: string): Promise<void>;
  /** Writes a file as it streams in, never holding it whole; answers its size in bytes. */
  putStream(key: string, source: Readable): Promise<number>;
  /** A stored file as a stream, with its size; undefined when there is none. */
  getStream(key: string): Promise<{ stream: Readable; size: number } | undefined>;
}

/** The only keys the storage accepts: no dots or slashes a path could climb with. */
export const STORAGE_KEY = /^[a-z]+\/[A-Za-z0-9_-]{8,64}\.(webp|png|jpg)$/;

/**
 * Keys of private files (a customer's data export): stored like the others, but never served
 * under /media/, which answers STORAGE_KEY's public images only.
 */
export const PRIVATE_STORAGE_KEY = /^private\/[a-z-]+\/[A-Za-z0-9_-]{8,64}\.zip$/;

const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  zip: 'application/zip',
};

function checkKey(key: string): void {
  if (!STORAGE_KEY.test(key) && !PRIVATE_STORAGE_KEY.test(key)) {
    throw new Error(`invalid storage key: ${key}`);
  }
}

/** Files in a folder on disk; several API processes share it through a network mount. */
export class DiskStorage implements FileStorage {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    checkKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, file: StoredFile): Promise<void> {
    const target = this.file(key);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.data);
  }

  async get(key: string): Promise<StoredFile | undefined> {
    try {
      const data = await readFile(this.file(key));
      const ext = key.slice(key.lastIndexOf('.') + 1);
      return { data, contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream' };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  async putStream(key: string, source: Readable): Promise<number> {
    const target = this.file(key);
    await mkdir(path.dirname(target), { recursive: true });
    // Written under a temporary name and renamed: a reader never sees half a file.
    const partial = `${target}.partial`;
    try {
      await pipeline(source, createWriteStream(partial));
      const { size } = await stat(partial);
      await rename(partial, target);
      return size;
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async getStream(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    const file = this.file(key);
    try {
      const { size } = await stat(file);
      return { stream: createReadStream(file), size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}

/** Files in this process only: tests and the in-memory embedded default. */
export class MemoryStorage implements FileStorage {
  private readonly files = new Map<string, StoredFile>();

  async put(key: string, file: StoredFile): Promise<void> {
    checkKey(key);
    this.files.set(key, file);
  }

  async get(key: string): Promise<StoredFile | undefined> {
    return this.files.get(key);
  }

  async delete(key: string): Promise<void> {
    this.files.delete(key);
  }

  async putStream(key: string, source: Readable): Promise<number> {
    checkKey(key);
    const chunks: Buffer[] = [];
    for await (const chunk of source) chunks.push(Buffer.from(chunk as Uint8Array));
    const data = Buffer.concat(chunks);
    const ext = key.slice(key.lastIndexOf('.') + 1);
    this.files.set(key, { data, contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream' });
    return data.length;
  }

  async getStream(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    const file = this.files.get(key);
    return file && { stream: Readable.from([file.data]), size: file.data.length };
  }
}
