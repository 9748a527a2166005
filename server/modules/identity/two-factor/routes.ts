import { accountEndpoints, RECOVERY_CODES_FILE } from '#shared/contracts/account.ts';
import { recoveryCodesFile } from '#shared/two-factor/recovery-codes-file.ts';
import { ownAccountRoutes, type Route } from '../../../http/endpoint-routes.ts';
import type { App } from '../../../http/types.ts';
import { setSessionCookie } from '../auth-plugin.ts';
import { userLocale } from '../mail-links.ts';
import { presentAuthUser } from '../user-presenter.ts';
import { TwoFactorService } from './two-factor-service.ts';

/** §7 profile/two-factor-authentication, for customers and staff alike. */
export function twoFactorRoutes(app: App): Route[] {
  const twoFactor = new TwoFactorService(app);
  const e = accountEndpoints;

  return [
    ...ownAccountRoutes(e.twoFactorEnable, async ({ request, auth: { user } }) => ({
      user: presentAuthUser(await twoFactor.enable(request, user)),
    })),
    ...ownAccountRoutes(e.twoFactorQr, async ({ reply, auth: { user } }) => {
      reply.header('cache-control', 'no-store');
      return twoFactor.qr(user);
    }),
    ...ownAccountRoutes(e.twoFactorConfirm, async ({ request, reply, auth, body }) => {
      const result = await twoFactor.confirm(request, auth, body.code);
      setSessionCookie(reply, app.config, result.sessionToken);
      reply.header('cache-control', 'no-store');
      return { user: presentAuthUser(result.user), recovery_codes: result.recoveryCodes };
    }),
    ...ownAccountRoutes(e.twoFactorDisable, async ({ request, auth: { user }, body }) => ({
      user: presentAuthUser(await twoFactor.disable(request, user, body.password)),
    })),
    ...ownAccountRoutes(e.recoveryCodes, async ({ request, reply, auth: { user }, body }) => {
      const codes = await twoFactor.newRecoveryCodes(request, user, body.password);
      const lang = body.locale ?? userLocale(app.config, user);
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${RECOVERY_CODES_FILE}"`)
        .type('text/plain; charset=utf-8')
        .send(recoveryCodesFile(codes, lang));
    }),
  ];
}
