import { type Challenge, encodeChallenge } from '#shared/challenge.ts';
import { isLang, type Lang } from '#shared/locales.ts';
import type { Config } from '../../config.ts';
import type { UserRow } from '../../db/schema/index.ts';

/** The language a user's e-mails are written in. */
export function userLocale(
  config: Pick<Config, 'defaultLocale'>,
  user: Pick<UserRow, 'locale'>,
): Lang {
  return isLang(user.locale) ? user.locale : config.defaultLocale;
}

/** An e-mailed link to a screen of the app (`path` below `/{lang}/`) carrying a challenge. */
export function challengeLink(
  config: Pick<Config, 'appUrl'>,
  lang: Lang,
  path: string,
  challenge: Challenge,
): string {
  return `${config.appUrl}/${lang}/${path}?challenge=${encodeChallenge(challenge)}`;
}
