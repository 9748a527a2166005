import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

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
}

/** The only keys the storage accepts: no dots or slashes a path could climb with. */
export const STORAGE_KEY = /^[a-z]+\/[A-Za-z0-9_-]{8,64}\.(webp|png|jpg)$/;

const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
};

function checkKey(key: string): void {
  if (!STORAGE_KEY.test(key)) throw new Error(`invalid storage key: ${key}`);
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
}
