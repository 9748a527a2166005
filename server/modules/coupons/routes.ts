import { couponEndpoints as e } from '#shared/contracts/admin/coupons.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { followCouponLink } from './coupon-link.ts';
import { listCoupons, listRedemptions } from './coupons-query.ts';
import { CouponsService } from './coupons-service.ts';

/** §2 /admin/coupons, §7 dashboard /coupons (admin only), and the pre-applied link. */
export function couponRoutes(app: App): Route[] {
  const now = () => app.payments.clock.now();
  const coupons = new CouponsService({ db: app.db, now });
  const answer = async (coupon: ReturnType<CouponsService['view']>) => ({ coupon: await coupon });

  return [
    route(e.list, ({ query }) => listCoupons(app.db, query, now())),
    route(e.view, ({ query }) => answer(coupons.view(query.coupon_id))),
    route(e.redemptions, async ({ query }) => {
      await coupons.view(query.coupon_id);
      return listRedemptions(app.db, query.coupon_id, query);
    }),
    route(e.create, ({ request, auth, body }) =>
      answer(coupons.create({ request, actor: auth }, body)),
    ),
    route(e.update, ({ request, auth, body }) =>
      answer(coupons.update({ request, actor: auth }, body)),
    ),
    route(e.delete, async ({ request, auth, body }) => {
      await coupons.delete({ request, actor: auth }, body.coupon_id);
      return { success: true } as const;
    }),
    route(e.massUpdate, async ({ request, auth, body }) => ({
      updated: await coupons.massUpdate({ request, actor: auth }, body),
    })),
    route(e.apply, ({ request, reply, params, query }) =>
      followCouponLink(
        { db: app.db, config: app.config, rateLimiter: app.rateLimiter, now },
        request,
        reply,
        { code: params.code, lang: query.lang },
      ),
    ),
  ];
}
