import type { Lang } from '../locales.ts';

// The text of 2fa_recovery_codes.txt has one home, here: the server writes it for a new set
// (§7 get-recovery-codes) and the browser for the first set, shown once after the
// confirmation, so both files read the same. It lives outside the i18n bundles because the
// server writes it too; it is only imported by the lazy security screens.

/** The lines above the codes in the downloaded file, in the reader's language. */
export const RECOVERY_CODES_HEADER: Readonly<Record<Lang, readonly string[]>> = {
  en: [
    'Shieldline VPN two-factor recovery codes',
    'Each code signs you in once when you cannot use your authenticator app.',
    'Keep this file somewhere safe; downloading a new set makes these codes stop working.',
  ],
  es: [
    'Códigos de recuperación de la verificación en dos pasos de Shieldline VPN',
    'Cada código te permite iniciar sesión una vez cuando no puedes usar tu app de autenticación.',
    'Guarda este archivo en un lugar seguro; si descargas un nuevo juego, estos códigos dejarán de funcionar.',
  ],
  fr: [
    'Codes de récupération de la double authentification Shieldline VPN',
    'Chaque code vous permet de vous connecter une fois si vous ne pouvez pas utiliser votre application d’authentification.',
    'Conservez ce fichier en lieu sûr ; télécharger une nouvelle série désactive ces codes.',
  ],
  nl: [
    'Herstelcodes voor tweestapsverificatie van Shieldline VPN',
    'Met elke code kun je één keer inloggen als je je authenticator-app niet kunt gebruiken.',
    'Bewaar dit bestand op een veilige plek; als je een nieuwe set downloadt, werken deze codes niet meer.',
  ],
  ru: [
    'Коды восстановления двухфакторной аутентификации Shieldline VPN',
    'Каждый код позволяет один раз войти в аккаунт, если приложение-аутентификатор недоступно.',
    'Храните этот файл в надёжном месте; после загрузки нового набора эти коды перестанут действовать.',
  ],
};

/**
 * The downloadable file of recovery codes (§4 2fa_recovery_codes.txt): a short header in the
 * user's language, a blank line, then one code a line, so the codes are easy to pick out.
 */
export function recoveryCodesFile(codes: readonly string[], lang: Lang): string {
  return `${[...RECOVERY_CODES_HEADER[lang], '', ...codes].join('\n')}\n`;
}
