import type { Redis } from 'ioredis';
import type { PageCache } from './page-cache.ts';

const CHANNEL = 'site:purge';

/**
 * Drops rendered pages here and, through Redis when it is configured, in every other API
 * process (each keeps its own page cache): `origin|tag,tag,…`, so a process skips its own.
 */
export class SitePurge {
  private remote: ((tags: readonly string[]) => void) | undefined;

  /**
   * `onRemote` hears the tags another process purged before the pages go, so what the pages
   * are made from (the catalog's cache) is dropped here too and the next page is fresh.
   */
  constructor(
    private readonly cache: PageCache,
    private readonly onRemote: (tags: readonly string[]) => void = () => {},
  ) {}

  purge(tags: Iterable<string>): void {
    const list = [...new Set(tags)];
    if (list.length === 0) return;
    this.cache.purge(list);
    this.remote?.(list);
  }

  async link(commands: Redis, subscriber: Redis, origin: string, onError: (error: Error) => void) {
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== CHANNEL) return;
      const [from, list] = message.split('|');
      if (from === origin || !list) return;
      const tags = list.split(',');
      this.onRemote(tags);
      this.cache.purge(tags);
    });
    await subscriber.subscribe(CHANNEL);
    this.remote = (tags) => {
      commands.publish(CHANNEL, `${origin}|${tags.join(',')}`).catch(onError);
    };
  }
}
