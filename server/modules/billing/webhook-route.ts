import { billingEndpoints } from '#shared/contracts/billing.ts';
import { AppError } from '../../http/app-error.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { type GatewayEvent, WebhookRejected } from '../../platform/payments/gateway.ts';
import { receiveEvents } from './gateway-events.ts';

/** A webhook body is at most this big; gateways send far less. */
const BODY_LIMIT = 256 * 1024;

/**
 * `POST /api/public/v1/webhooks/{gateway}`: the one way every gateway reports changes. The
 * signature is checked over the raw bytes before anything else (forged, tampered or stale:
 * 400, nothing changes); each event is then applied once (a replay answers 200 and changes
 * nothing); a failure of ours answers 5xx so the gateway sends it again.
 */
export function webhookRoute(app: App): Route {
  return route(
    billingEndpoints.webhook,
    async ({ params, request }) => {
      const gateway = app.payments.get(params.gateway);
      if (!gateway) throw new AppError('not_found');
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      let events: GatewayEvent[];
      try {
        events = await gateway.verifyWebhook(raw, request.headers);
      } catch (error) {
        if (!(error instanceof WebhookRejected)) throw error;
        request.log.warn({ gateway: gateway.name, reason: error.message }, 'webhook refused');
        throw new AppError('bad_request');
      }
      await receiveEvents(app, gateway, events);
      return { received: true as const };
    },
    {
      // A gateway's server posts it, with no cookie and no CSRF header: its signature is
      // what proves it, and nothing is done on a session's authority.
      crossSitePost: true,
      // The signature covers the bytes as sent: the body is kept raw, whatever its type.
      scope: (instance) => {
        instance.removeAllContentTypeParsers();
        instance.addContentTypeParser(
          '*',
          { parseAs: 'buffer', bodyLimit: BODY_LIMIT },
          (_request, body, done) => done(null, body),
        );
      },
    },
  );
}
