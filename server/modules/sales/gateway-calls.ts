import type { GatewayName } from '#shared/billing/billing-values.ts';
import { SALES_MESSAGES as M } from '#shared/contracts/admin/subscriptions.ts';
import { AppError } from '../../http/app-error.ts';
import type { App } from '../../http/types.ts';
import {
  GatewayRequestError,
  GatewayUnavailable,
  type PaymentGateway,
} from '../../platform/payments/gateway.ts';
import { holdingSlot } from '../billing/idempotent.ts';

/** The gateway a subscription or invoice runs on; a 409 when this process has none for it. */
export function gatewayFor(app: App, name: GatewayName): PaymentGateway {
  const gateway = app.payments.get(name);
  if (!gateway) throw new AppError('conflict', { info: M.gatewayUnavailable });
  return gateway;
}

/**
 * Asks a gateway: what it refuses (the object's state, a request it cannot do) is a 409
 * with our message, an outage a 503; neither is a 500.
 */
export async function ask<T>(app: App, what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof GatewayRequestError) {
      app.log.warn({ err: error, what }, 'a gateway refused staff');
      throw new AppError('conflict', { info: M.gatewayRefused });
    }
    if (error instanceof GatewayUnavailable) {
      app.log.error({ err: error, what }, 'a gateway is unavailable');
      throw new AppError('unavailable', { info: M.gatewayUnavailable });
    }
    throw error;
  }
}

/**
 * One refund of an invoice at a time, whoever asks (a double click, two staff): money moves
 * outside any transaction, so the second is told one is in progress; once the first is done,
 * what is left is read afresh.
 */
export function oneRefundAtATime<T>(
  app: App,
  invoiceId: number,
  actorId: number,
  work: () => Promise<T>,
): Promise<T> {
  return holdingSlot(
    app,
    {
      key: `staff-refund:invoice:${invoiceId}`,
      userId: actorId,
      busy: () => new AppError('conflict', { info: M.refundInProgress }),
    },
    work,
  );
}
