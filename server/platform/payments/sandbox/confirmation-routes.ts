import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formatMoney } from '#shared/money.ts';
import { AppError } from '../../../http/app-error.ts';
import { readObject } from './books.ts';
import {
  CONFIRMATION_PATH,
  confirmationUrl,
  confirmPayment,
  outcomeOf,
  returnTarget,
} from './confirmation.ts';
import { confirmationPage, notFoundPage, settledPage } from './confirmation-page.ts';
import type { SandboxContext } from './sandbox-context.ts';

const FORM = 'application/x-www-form-urlencoded';
const PAYMENT_ID = /^pay_[0-9a-f]{24}$/;

function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(body);
}

function paymentIdOf(request: FastifyRequest): string | null {
  const { paymentId } = request.params as { paymentId?: string };
  return paymentId && PAYMENT_ID.test(paymentId) ? paymentId : null;
}

/**
 * A form posted from another site must not settle someone's payment: a browser names the
 * page the form was on, and it must be ours.
 */
function fromOurPage(request: FastifyRequest, appUrl: string): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    const host = new URL(origin).host;
    return host === request.headers.host || host === new URL(appUrl).host;
  } catch {
    return false;
  }
}

/** The confirmation page standing in for 3-D Secure, and its form's target. */
export async function confirmationRoutes(
  app: FastifyInstance,
  context: SandboxContext,
): Promise<void> {
  // Form bodies are read in this scope only, as the page's form sends them.
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.get(
    `${CONFIRMATION_PATH}/:paymentId`,
    { schema: { hide: true }, config: { access: 'public' } },
    async (request, reply) => {
      const paymentId = paymentIdOf(request);
      const payment = paymentId ? await readObject(context.db, 'payment', paymentId) : null;
      if (!payment) return html(reply, 404, notFoundPage());
      const outcome = outcomeOf(payment);
      if (outcome) {
        const back = payment.returnUrl
          ? returnTarget(context.appUrl, payment.returnUrl, payment.id, outcome)
          : null;
        return html(reply, 200, settledPage(outcome, back, context.merchantName));
      }
      if (payment.status !== 'requires_action') return html(reply, 404, notFoundPage());
      const card = payment.card ? await readObject(context.db, 'card', payment.card) : null;
      const brand = card ? card.brand.charAt(0).toUpperCase() + card.brand.slice(1) : 'Card';
      return html(
        reply,
        200,
        confirmationPage({
          paymentId: payment.id,
          merchant: context.merchantName,
          amount: formatMoney({ amount: payment.amount, currency: payment.currency }, 'en'),
          card: card ? `${brand} ending in ${card.last4}` : brand,
          action: new URL(confirmationUrl(context.appUrl, payment.id)).pathname,
        }),
      );
    },
  );

  app.post(
    `${CONFIRMATION_PATH}/:paymentId`,
    { schema: { hide: true }, config: { access: 'public' } },
    async (request, reply) => {
      if (!fromOurPage(request, context.appUrl)) throw new AppError('forbidden');
      const choice = (request.body as { outcome?: unknown } | undefined)?.outcome;
      if (choice !== 'complete' && choice !== 'fail') throw new AppError('bad_request');
      const paymentId = paymentIdOf(request);
      const found = paymentId ? await readObject(context.db, 'payment', paymentId) : null;
      if (!paymentId || !found) throw new AppError('not_found');
      // Checked before anything changes: a bad return URL settles nothing.
      const returnUrl = found.returnUrl;
      if (!returnUrl || !returnTarget(context.appUrl, returnUrl, paymentId, 'failed')) {
        throw new AppError('bad_request', { info: 'return_url must be on this site' });
      }
      const payment = await confirmPayment(context, paymentId, choice === 'complete');
      const outcome = outcomeOf(payment) ?? 'failed';
      const target = returnTarget(context.appUrl, returnUrl, paymentId, outcome);
      if (!target) throw new AppError('bad_request');
      return reply.redirect(target, 303);
    },
  );
}
