import { eq } from 'drizzle-orm';
import { invoiceEndpoints as invoice } from '#shared/contracts/admin/invoices.ts';
import {
  SALES_MESSAGES as M,
  subscriptionEndpoints as subscription,
} from '#shared/contracts/admin/subscriptions.ts';
import { invoices } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { invoicePdf } from '../billing/invoices-service.ts';
import { invoicesCsv, invoicesPdf } from './invoice-export.ts';
import { refundInvoice } from './invoice-refunds.ts';
import { latestInvoices, listAdminInvoices } from './invoices-query.ts';
import {
  cancelSubscription,
  refundSubscription,
  resumeSubscription,
} from './subscription-admin.ts';
import { listAdminSubscriptions } from './subscriptions-query.ts';

/** §7 dashboard /subscriptions and /invoices (but stat-by-country, statistics'): admin only. */
export function salesRoutes(app: App): Route[] {
  return [
    route(subscription.list, ({ query }) => listAdminSubscriptions(app.db, query)),
    route(subscription.cancel, ({ request, auth, body }) =>
      cancelSubscription(app, { request, actorId: auth.user.id }, body),
    ),
    route(subscription.resume, ({ request, auth, body }) =>
      resumeSubscription(app, { request, actorId: auth.user.id }, body.subscription_id),
    ),
    route(subscription.refund, ({ request, auth, body }) =>
      refundSubscription(app, { request, actorId: auth.user.id }, body),
    ),
    route(invoice.list, ({ query }) => listAdminInvoices(app.db, query)),
    route(invoice.latest, ({ query }) => latestInvoices(app.db, query.limit)),
    route(invoice.refund, ({ request, auth, body }) =>
      refundInvoice(
        app,
        { request, actorId: auth.user.id },
        {
          invoiceId: body.invoice_id,
          amount: body.amount,
          reason: body.reason,
          endSubscription: body.end_subscription,
          address: body.address,
        },
      ),
    ),
    route(invoice.pdf, async ({ params, reply }) => {
      // The customer's own PDF, as they download it: staff see what the customer got.
      const [row] = await app.db
        .select({ userId: invoices.userId })
        .from(invoices)
        .where(eq(invoices.id, params.invoice_id));
      if (!row?.userId) throw new AppError('not_found', { info: M.invoiceNotFound });
      const { pdf, filename } = await invoicePdf(app, row.userId, params.invoice_id);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    }),
    route(invoice.exportCsv, ({ query, reply }) => {
      const { lang: _lang, ...filters } = query;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportName(query, 'csv')}"`)
        .header('cache-control', 'private, no-store')
        .send(invoicesCsv(app.db, filters));
    }),
    route(invoice.exportPdf, async ({ query, reply }) => {
      const pdf = await invoicesPdf(app.db, query);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${exportName(query, 'pdf')}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    }),
  ];
}

const exportName = (range: { from: string; to: string }, extension: string) =>
  `invoices-${range.from}-${range.to}.${extension}`;
