import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNT_MESSAGES,
  ACCOUNT_PATHS,
  AVATAR_FIELD,
  AVATAR_MAX_BYTES,
  emailChangeConfirmRequest,
  emailChangeResendRequest,
  passwordConfirmation,
  profileUpdateRequest,
  updatePasswordRequest,
} from '#shared/contracts/account.ts';
import { successResponse } from '#shared/contracts/auth.ts';
import { authUserResponse } from '#shared/contracts/auth-user.ts';
import { FIELD_IS_REQUIRED } from '#shared/validation/zod-messages.ts';
import type { ModuleOptions } from '../../http/api.ts';
import { AppError } from '../../http/app-error.ts';
import { setSessionCookie } from '../auth/auth-plugin.ts';
import { presentAuthUser } from '../auth/user-presenter.ts';
import { requireAccountOwner, requireActiveAccount } from './account-access.ts';
import { NotAnImageError } from './avatar-image.ts';
import { ProfileService } from './profile-service.ts';

const SUCCESS = { success: true } as const;

/**
 * The `photo` file of a multipart request, read whole, at most 20 MB (§5). A body the
 * multipart parser cannot read (no boundary, cut short) is the client's fault: busboy says
 * so with a plain Error, which would otherwise leave as a 500.
 */
async function readPhoto(request: FastifyRequest): Promise<Buffer> {
  let file: MultipartFile | undefined;
  try {
    file = await request.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 0 } });
    if (!file || file.fieldname !== AVATAR_FIELD) {
      throw AppError.field(AVATAR_FIELD, FIELD_IS_REQUIRED);
    }
    return await file.toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('payload_too_large', {
        validation: { [AVATAR_FIELD]: [ACCOUNT_MESSAGES.imageTooLarge] },
      });
    }
    // Fastify's own multipart refusals (too many parts or files …) carry their 4xx status.
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) throw error;
    request.log.info({ err: { message: (error as Error).message } }, 'unreadable upload');
    throw new AppError('bad_request', {
      validation: { [AVATAR_FIELD]: [ACCOUNT_MESSAGES.imageInvalid] },
    });
  }
}

/**
 * §7 Account profile calls, for customers (account base) and staff (dashboard base,
 * /admin/account): profile and avatar, e-mail change, password, deactivation.
 */
export const profileRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { area }) => {
  const profile = new ProfileService(app);
  const tags = [area === 'dashboard' ? 'dashboard profile' : 'account profile'];
  const answer = (user: Parameters<typeof presentAuthUser>[0]) => ({ user: presentAuthUser(user) });

  app.post(
    ACCOUNT_PATHS.profileUpdate,
    {
      schema: {
        tags,
        summary:
          'Update name, username and e-mail (JSON), or the avatar (multipart field `photo`, ≤ 20 MB)',
        consumes: ['application/json', 'multipart/form-data'],
        // A multipart request carries no JSON body; its file is read below.
        body: profileUpdateRequest.nullish(),
        response: { 200: authUserResponse },
      },
    },
    async (request) => {
      const { user } = requireActiveAccount(request, area);
      if (request.isMultipart()) {
        try {
          return answer(await profile.updatePhoto(request, user, () => readPhoto(request)));
        } catch (error) {
          if (error instanceof NotAnImageError) {
            throw AppError.field(AVATAR_FIELD, ACCOUNT_MESSAGES.imageInvalid);
          }
          throw error;
        }
      }
      if (!request.body) throw AppError.field('username', FIELD_IS_REQUIRED);
      return answer(await profile.updateProfile(request, user, request.body));
    },
  );

  app.post(
    ACCOUNT_PATHS.removePhoto,
    { schema: { tags, summary: 'Remove the avatar', response: { 200: authUserResponse } } },
    async (request) => {
      const { user } = requireActiveAccount(request, area);
      return answer(await profile.removePhoto(request, user));
    },
  );

  app.post(
    ACCOUNT_PATHS.emailChangeResend,
    {
      schema: {
        tags,
        summary: 'Send the link for the pending e-mail address again',
        body: emailChangeResendRequest.nullish(),
        response: { 200: successResponse },
      },
    },
    async (request) => {
      const { user } = requireActiveAccount(request, area);
      await profile.resendEmailChange(request, user, request.body?.locale);
      return SUCCESS;
    },
  );

  app.post(
    ACCOUNT_PATHS.emailChangeCancel,
    {
      schema: {
        tags,
        summary: 'Cancel the pending e-mail change',
        response: { 200: authUserResponse },
      },
    },
    async (request) => {
      const { user } = requireActiveAccount(request, area);
      return answer(await profile.cancelEmailChange(request, user));
    },
  );

  app.post(
    ACCOUNT_PATHS.emailChangeConfirm,
    {
      schema: {
        tags,
        summary: 'Confirm the new e-mail address with the challenge from the link',
        body: emailChangeConfirmRequest,
        response: { 200: authUserResponse },
      },
    },
    async (request) => {
      const { user } = requireActiveAccount(request, area);
      return answer(await profile.confirmEmailChange(request, user, request.body.challenge));
    },
  );

  app.post(
    ACCOUNT_PATHS.updatePassword,
    {
      schema: {
        tags,
        summary: 'Change the password; every other session ends',
        body: updatePasswordRequest,
        response: { 200: successResponse },
      },
    },
    async (request, reply) => {
      const { user, session } = requireActiveAccount(request, area);
      const token = await profile.updatePassword(request, user, session.id, request.body);
      setSessionCookie(reply, app.config, token);
      return SUCCESS;
    },
  );

  app.post(
    ACCOUNT_PATHS.passwordSetLink,
    {
      schema: {
        tags,
        summary: 'E-mail a link to set a password (accounts made through social sign-in)',
        body: emailChangeResendRequest.nullish(),
        response: { 200: successResponse },
      },
    },
    async (request) => {
      const { user } = requireActiveAccount(request, area);
      await profile.sendPasswordSetLink(request, user, request.body?.locale);
      return SUCCESS;
    },
  );

  app.post(
    ACCOUNT_PATHS.delete,
    {
      schema: {
        tags,
        summary: 'Deactivate the account (deleted after a grace period unless reactivated)',
        body: passwordConfirmation,
        response: { 200: authUserResponse },
      },
    },
    async (request) => {
      const { user } = requireAccountOwner(request, area);
      return answer(await profile.deactivate(request, user, request.body.password));
    },
  );

  app.post(
    ACCOUNT_PATHS.deleteCancel,
    {
      schema: { tags, summary: 'Reactivate the account', response: { 200: authUserResponse } },
    },
    async (request) => {
      const { user } = requireAccountOwner(request, area);
      return answer(await profile.reactivate(request, user));
    },
  );
};
