import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCOUNT_PATHS,
  passwordConfirmation,
  RECOVERY_CODES_FILE,
  twoFactorCodeRequest,
  twoFactorConfirmResponse,
  twoFactorQrResponse,
} from '#shared/contracts/account.ts';
import { authUserResponse } from '#shared/contracts/auth-user.ts';
import type { ModuleOptions } from '../../http/api.ts';
import { requireActiveAccount } from '../account/account-access.ts';
import { presentAuthUser } from '../auth/user-presenter.ts';
import { TwoFactorService } from './two-factor-service.ts';

/** The downloadable file of recovery codes: one per line, with a line on how to use them. */
function recoveryCodesText(codes: string[]): string {
  const intro = [
    'Shieldline VPN two-factor recovery codes',
    'Each code signs you in once when you cannot use your authenticator app.',
    '',
  ];
  return `${[...intro, ...codes].join('\n')}\n`;
}

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
        body: passwordConfirmation,
        produces: ['text/plain'],
        response: { 200: z.string() },
      },
    },
    async (request, reply) => {
      const { user } = requireActiveAccount(request, area);
      const codes = await twoFactor.newRecoveryCodes(request, user, request.body.password);
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${RECOVERY_CODES_FILE}"`)
        .type('text/plain; charset=utf-8')
        .send(recoveryCodesText(codes));
    },
  );
};
