import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { App } from '../../http/types.ts';
import { runExportJob } from './build-export.ts';
import { DATA_EXPORT_QUEUE } from './data-export-service.ts';

/**
 * Builds the exports people ask for (issue 25) on the durable queue, so a request survives a
 * restart and is built once across processes. Its sweep is a scheduled job (scheduled-jobs.ts).
 */
export const dataExportPlugin = fp(
  async (app: FastifyInstance) => {
    await app.queue.work(DATA_EXPORT_QUEUE, (job) => runExportJob(app as App, job));
  },
  { name: 'data-export', dependencies: ['database', 'queue', 'mailer', 'storage'] },
);
