import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import {
  ACCOUNT_MESSAGES,
  AVATAR_FIELD,
  AVATAR_MAX_BYTES,
  accountEndpoints,
} from '#shared/contracts/account.ts';
import { FIELD_IS_REQUIRED } from '#shared/validation/zod-messages.ts';
import { AppError } from '../../http/app-error.ts';
import { ownAccountRoutes, type Route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { setSessionCookie } from '../identity/auth-plugin.ts';
import { presentAuthUser } from '../identity/user-presenter.ts';
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
export function profileRoutes(app: App): Route[] {
  const profile = new ProfileService(app);
  const e = accountEndpoints;
  const answer = (user: Parameters<typeof presentAuthUser>[0]) => ({ user: presentAuthUser(user) });

  return [
    ...ownAccountRoutes(e.profileUpdate, async ({ request, auth: { user }, body }) => {
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
      if (!body) throw AppError.field('username', FIELD_IS_REQUIRED);
      return answer(await profile.updateProfile(request, user, body));
    }),
    ...ownAccountRoutes(e.removePhoto, async ({ request, auth: { user } }) =>
      answer(await profile.removePhoto(request, user)),
    ),
    ...ownAccountRoutes(e.emailChangeResend, async ({ request, auth: { user }, body }) => {
      await profile.resendEmailChange(request, user, body?.locale);
      return SUCCESS;
    }),
    ...ownAccountRoutes(e.emailChangeCancel, async ({ request, auth: { user } }) =>
      answer(await profile.cancelEmailChange(request, user)),
    ),
    ...ownAccountRoutes(e.emailChangeConfirm, async ({ request, auth: { user }, body }) =>
      answer(await profile.confirmEmailChange(request, user, body.challenge)),
    ),
    ...ownAccountRoutes(e.updatePassword, async ({ request, reply, auth, body }) => {
      const token = await profile.updatePassword(request, auth.user, auth.session.id, body);
      setSessionCookie(reply, app.config, token);
      return SUCCESS;
    }),
    ...ownAccountRoutes(e.passwordSetLink, async ({ request, auth: { user }, body }) => {
      await profile.sendPasswordSetLink(request, user, body?.locale);
      return SUCCESS;
    }),
    ...ownAccountRoutes(e.delete, async ({ request, auth: { user }, body }) =>
      answer(await profile.deactivate(request, user, body.password)),
    ),
    ...ownAccountRoutes(e.deleteCancel, async ({ request, auth: { user } }) =>
      answer(await profile.reactivate(request, user)),
    ),
  ];
}
