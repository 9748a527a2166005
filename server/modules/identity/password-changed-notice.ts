import type { Config } from '../../config.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { userLocale } from './mail-links.ts';

/** What the notice needs: the mailer, and the language to fall back on. */
export interface PasswordNoticeDeps {
  config: Pick<Config, 'defaultLocale'>;
  mailer: Mailer;
}

/**
 * The security notice after any change of password (reset, set, changed), sent once the
 * change is committed: the owner hears of it even when it was not them.
 */
export function notifyPasswordChanged(deps: PasswordNoticeDeps, user: UserRow): Promise<void> {
  return deps.mailer.send({
    template: 'password_changed',
    to: user.email,
    locale: userLocale(deps.config, user),
    data: { name: user.name ?? user.username },
  });
}
