import { formatDuration, type MailTexts } from '../mail-texts.ts';

// Je-vorm and "aanmelden" for signing in, as in the app's Dutch texts.
export const nl: MailTexts = {
  greeting: (name) => (name ? `Hallo ${name},` : 'Hallo,'),
  linkHint: 'Werkt de knop niet? Kopieer deze link dan naar je browser:',
  signature: 'Het Shieldline VPN-team',
  footer: 'Dit is een automatisch bericht over je Shieldline VPN-account.',
  templates: {
    email_verify: () => ({
      subject: 'Bevestig je e-mailadres',
      preview: 'Nog één klik om je Shieldline VPN-account klaar te maken.',
      heading: 'Bevestig je e-mailadres',
      paragraphs: [
        'Bedankt dat je je hebt geregistreerd bij Shieldline VPN. Bevestig dat dit e-mailadres van jou is, zodat we je kunnen bereiken over je account en je abonnement.',
      ],
      action: 'E-mailadres bevestigen',
      ignore: 'Heb je geen Shieldline VPN-account aangemaakt? Dan kun je deze e-mail negeren.',
    }),
    password_reset: ({ expiresInMinutes }) => ({
      subject: 'Stel je Shieldline VPN-wachtwoord opnieuw in',
      preview: 'Kies een nieuw wachtwoord voor je account.',
      heading: 'Stel je wachtwoord opnieuw in',
      paragraphs: [
        'We hebben een verzoek ontvangen om het wachtwoord van je Shieldline VPN-account opnieuw in te stellen. Gebruik de knop hieronder om een nieuw wachtwoord te kiezen.',
      ],
      action: 'Nieuw wachtwoord kiezen',
      note: `Deze link verloopt over ${formatDuration('nl', expiresInMinutes)} en werkt maar één keer.`,
      ignore:
        'Heb je dit niet aangevraagd? Dan kun je deze e-mail negeren; je wachtwoord blijft hetzelfde.',
    }),
    password_set: () => ({
      subject: 'Stel een wachtwoord in voor je Shieldline VPN-account',
      preview: 'Kies een wachtwoord om je aan te melden met je e-mailadres.',
      heading: 'Stel je wachtwoord in',
      paragraphs: [
        'Wil je je aanmelden met je e-mailadres en een wachtwoord? Kies dan een wachtwoord voor je Shieldline VPN-account.',
      ],
      action: 'Wachtwoord instellen',
      ignore:
        'Heb je hier niet om gevraagd? Dan kun je deze e-mail negeren; er verandert niets aan je account.',
    }),
    email_change: ({ newEmail }) => ({
      subject: 'Bevestig je nieuwe e-mailadres',
      preview: 'Bevestig de wijziging om je account bij te werken.',
      heading: 'Bevestig je nieuwe e-mailadres',
      paragraphs: [
        `Je hebt gevraagd om het e-mailadres van je Shieldline VPN-account te wijzigen in ${newEmail}.`,
        'Bevestig de wijziging om dit adres te gebruiken om je aan te melden en om berichten van ons te ontvangen.',
      ],
      action: 'Nieuw adres bevestigen',
      ignore:
        'Heb je deze wijziging niet aangevraagd? Dan kun je deze e-mail negeren; je account houdt het huidige adres.',
    }),
    password_changed: () => ({
      subject: 'Het wachtwoord van je Shieldline VPN-account is gewijzigd',
      preview: 'Een beveiligingsmelding over je account.',
      heading: 'Je wachtwoord is gewijzigd',
      paragraphs: [
        'Het wachtwoord van je Shieldline VPN-account is zojuist gewijzigd.',
        'Was jij dit niet? Stel je wachtwoord dan meteen opnieuw in om je account te beveiligen, en laat het ons supportteam weten.',
      ],
      action: 'Wachtwoord opnieuw instellen',
      ignore: 'Heb je dit zelf gedaan? Dan kun je deze e-mail negeren.',
    }),
  },
};
