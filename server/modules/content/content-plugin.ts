import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ContentChanges } from './content-changes.ts';
import { seedDemoContent } from './demo-content.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Committed content changes, for the public site's page cache. */
    contentChanges: ContentChanges;
  }
}

/** Content's start-up: the demo's pages, posts, articles and FAQ on a new demo database. */
export const contentPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('contentChanges', new ContentChanges());
    if (!app.config.seedDemo) return;
    app.addHook('onReady', async () => {
      // After the demo's people (the posts' author) exist.
      void app.demoBillingSeeded
        .then(() => seedDemoContent(app.db))
        .catch((error: unknown) => app.log.error({ err: error }, 'demo content not seeded'));
    });
  },
  { name: 'content', dependencies: ['database', 'billing'] },
);
