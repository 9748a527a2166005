import { DATA_EXPORT_FILE_NAME, dataExportEndpoints as e } from '#shared/contracts/data-export.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { exportStatus, requestExport, startDownload } from './data-export-service.ts';

/** The account page's "Your data" (shared/contracts/data-export.ts). */
export function dataExportRoutes(app: App): Route[] {
  return [
    route(e.status, ({ auth }) => exportStatus(app.db, auth.user.id)),
    route(e.request, ({ request, auth }) => requestExport(app, request, auth.user)),
    route(e.download, async ({ request, reply, auth, body }) => {
      const download = await startDownload(app, request, auth.user, body.token);
      // 'finish': the last byte left us; 'close' before it: the connection dropped midway.
      let settled = false;
      const settle = (completed: boolean) => {
        if (settled) return;
        settled = true;
        download.settle(completed).catch((error: unknown) => {
          request.log.error({ err: error }, 'settling a data export download failed');
        });
      };
      reply.raw.once('finish', () => settle(true));
      reply.raw.once('close', () => settle(false));
      return reply
        .type('application/zip')
        .header('content-length', String(download.size))
        .header('content-disposition', `attachment; filename="${DATA_EXPORT_FILE_NAME}"`)
        .header('cache-control', 'private, no-store')
        .send(download.stream);
    }),
  ];
}
