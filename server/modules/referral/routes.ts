import { referralEndpoints } from '#shared/contracts/referral.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { referralViewOf } from './referral-figures.ts';
import { joinReferral } from './referral-join.ts';

/** §7 referral program: joining through a friend's link, and the user's own figures. */
export function referralRoutes(app: App): Route[] {
  const e = referralEndpoints;
  return [
    route(e.join, async ({ request, auth, body }) => {
      await joinReferral(app, request, auth.user, body.token);
      return { joined: true } as const;
    }),
    route(e.view, ({ auth }) =>
      referralViewOf(app.db, auth.user.id, app.payments.clock.now(), app.config.referralBonusDays),
    ),
  ];
}
