import type { FamilyMemberRow, UserRow } from '../../db/schema/index.ts';
import type { App } from '../../http/types.ts';
import type { MailMessage } from '../../platform/mail/mailer.ts';
import { challengeLink, userLocale } from '../identity/mail-links.ts';

/** §2 where the mailed link leads; the route's challenge checks the address and token. */
export const INVITE_VERIFY_PATH = 'familysharing/invite/verify';

/**
 * The invite, in the invitee's language when they have an account, else the owner's (who
 * most likely shares a language with the family they invite).
 */
export async function inviteMail(
  app: App,
  owner: UserRow,
  seat: FamilyMemberRow,
  token: string,
  invitee: UserRow | null,
): Promise<MailMessage> {
  const lang = userLocale(app.config, invitee ?? owner);
  const dates = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' });
  return {
    template: 'family_invite',
    to: seat.email,
    locale: lang,
    data: {
      name: invitee?.name ?? invitee?.username ?? seat.email,
      ownerName: owner.name ?? owner.email,
      expiresOn: dates.format(seat.inviteExpiresAt),
      link: challengeLink(app.config, lang, INVITE_VERIFY_PATH, { email: seat.email, token }),
    },
  };
}
