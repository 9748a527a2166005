import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNT_PATHS,
  passwordConfirmation,
  RECOVERY_CODES_FILE,
  recoveryCodesRequest,
  recoveryCodesResponse,
  twoFactorCodeRequest,
  twoFactorConfirmResponse,
  twoFactorQrResponse,
} from '#shared/contracts/account.ts';
import { authUserResponse } from '#shared/contracts/auth-user.ts';
import { recoveryCodesFile } from '#shared/two-factor/recovery-codes-file.ts';
import type { ModuleOptions } from '../../http/api.ts';
import { requireActiveAccount } from '../account/account-access.ts';
import { setSessionCookie } from '../auth/auth-plugin.ts';
import { userLocale } from '../auth/mail-links.ts';
import { presentAuthUser } from '../auth/user-presenter.ts';
import { TwoFactorService } from './two-factor-service.ts';

/** §7 profile/two-factor-authentication, for customers and staff alike. */
export const twoFactorRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { area }) => {
  const twoFactor = new TwoFactorService(app);
  const tags = [area === 'dashboard' ? 'dashboard two-factor' : 'account two-factor'];

  app.post(
    ACCOUNT_PATHS.twoFactorEnable,
    {
      schema: {
        tags,
        summary: 'Start the setup: a new secret, not yet confirmed',
        response: { 200: authUserResponse },
      },
    },
    async (request) => {
      const { user } = requireActiveAccount(request, area);
      return { user: presentAuthUser(await twoFactor.enable(request, user)) };
    },
  );

  app.get(
    ACCOUNT_PATHS.twoFactorQr,
    {
      schema: {
        tags,
        summary: 'The QR code (SVG) and secret of the setup in progress',
        response: { 200: twoFactorQrResponse },
      },
    },
    async (request, reply) => {
      const { user } = requireActiveAccount(request, area);
      reply.header('cache-control', 'no-store');
      return twoFactor.qr(user);
    },
  );

  app.post(
    ACCOUNT_PATHS.twoFactorConfirm,
    {
      schema: {
        tags,
        summary: 'Confirm the setup with a code; answers the first recovery codes',
        body: twoFactorCodeRequest,
        response: { 200: twoFactorConfirmResponse },
      },
    },
    async (request, reply) => {
      const { user } = requireActiveAccount(request, area);
      const result = await twoFactor.confirm(request, user, request.body.code);
      setSessionCookie(reply, app.config, result.sessionToken);
      reply.header('cache-control', 'no-store');
      return { user: presentAuthUser(result.user), recovery_codes: result.recoveryCodes };
    },
  );

  app.post(
    ACCOUNT_PATHS.twoFactorDisable,
    {
      schema: {
        tags,
        summary: 'Turn two-factor authentication off',
        body: passwordConfirmation,
        response: { 200: authUserResponse },
      },
    },
    async (request) => {
      const { user } = requireActiveAccount(request, area);
      return {
        user: presentAuthUser(await twoFactor.disable(request, user, request.body.password)),
      };
    },
  );

  app.post(
    ACCOUNT_PATHS.recoveryCodes,
    {
      schema: {
        tags,
        summary: `A new set of recovery codes as ${RECOVERY_CODES_FILE}; the previous set stops working`,
        body: recoveryCodesRequest,
        produces: ['text/plain'],
        response: { 200: recoveryCodesResponse },
      },
    },
    async (request, reply) => {
      const { user } = requireActiveAccount(request, area);
      const { password, locale } = request.body;
      const codes = await twoFactor.newRecoveryCodes(request, user, password);
      const lang = locale ?? userLocale(app.config, user);
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${RECOVERY_CODES_FILE}"`)
        .type('text/plain; charset=utf-8')
        .send(recoveryCodesFile(codes, lang));
    },
  );
};
