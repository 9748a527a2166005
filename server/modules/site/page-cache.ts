/** A rendered page as the cache keeps it: sent as is to everyone, compressed once. */
export interface CachedPage {
  html: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  tags: ReadonlySet<string>;
  at: number;
}

/**
 * Rendered public pages by address. The same page goes to everyone (nothing in it depends on
 * who asks), so one copy serves all. A change drops exactly the pages made of what changed
 * (their tags, see site-pages.ts); `maxAgeMs` is the net under that, for a change made where
 * no purge reaches (a scheduled text going public between two runs of the content clock).
 */
export class PageCache {
  readonly #pages = new Map<string, CachedPage>();

  constructor(
    private readonly capacity = 2_000,
    private readonly maxAgeMs = 60_000,
  ) {}

  get(key: string, now = Date.now()): CachedPage | undefined {
    const page = this.#pages.get(key);
    if (!page) return undefined;
    if (now - page.at > this.maxAgeMs) {
      this.#pages.delete(key);
      return undefined;
    }
    // Most recently used last: the first key is the one to drop when full.
    this.#pages.delete(key);
    this.#pages.set(key, page);
    return page;
  }

  set(key: string, page: CachedPage): void {
    this.#pages.delete(key);
    this.#pages.set(key, page);
    while (this.#pages.size > this.capacity) {
      const oldest = this.#pages.keys().next().value;
      if (oldest === undefined) break;
      this.#pages.delete(oldest);
    }
  }

  /** Drops every page made of any of `tags`; `*` drops them all. */
  purge(tags: Iterable<string>): number {
    const wanted = new Set(tags);
    let dropped = 0;
    for (const [key, page] of this.#pages) {
      if (wanted.has('*') || [...page.tags].some((tag) => wanted.has(tag))) {
        this.#pages.delete(key);
        dropped += 1;
      }
    }
    return dropped;
  }

  get size(): number {
    return this.#pages.size;
  }
}
