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
    billing_receipt: ({ planName, amount, invoiceNumber, periodEnd }) => ({
      subject: 'Je betalingsbewijs van Shieldline VPN',
      preview: 'Bedankt voor je betaling. Je factuur staat klaar in je account.',
      heading: 'Betaling ontvangen',
      paragraphs: [
        `Bedankt! We hebben je betaling van ${amount} voor je pakket ${planName} ontvangen.`,
        `Je abonnement is betaald tot ${periodEnd}. Je kunt de factuur altijd bekijken en downloaden op de pagina Facturen in je account.`,
      ],
      action: 'Facturen bekijken',
      note: `Factuurnummer: ${invoiceNumber}`,
      ignore: 'Heb je deze betaling niet gedaan? Neem dan meteen contact op met ons supportteam.',
    }),
    billing_payment_failed: ({ planName, amount, reason, retryOn, graceEndsOn }) => {
      const lapsed = retryOn === null;
      const access = graceEndsOn === null ? '' : ` Je VPN blijft werken tot ${graceEndsOn}.`;
      return {
        subject: lapsed
          ? 'Je Shieldline VPN-abonnement is verlopen'
          : 'We konden je Shieldline VPN-abonnement niet verlengen',
        preview: lapsed
          ? 'Werk je betaalmethode bij om weer toegang te krijgen tot de VPN.'
          : 'Werk je betaalmethode bij om je toegang tot de VPN te houden.',
        heading: lapsed ? 'Je abonnement is verlopen' : 'Je betaling is niet gelukt',
        paragraphs: [
          `We hebben geprobeerd ${amount} af te schrijven voor je pakket ${planName}, maar de betaling is niet gelukt.`,
          `Reden: ${reason}`,
          lapsed
            ? 'Dit was onze laatste poging, dus je abonnement is verlopen en je hebt geen toegang meer tot de VPN. Werk je betaalmethode bij om je abonnement te verlengen en weer toegang te krijgen.'
            : `We proberen het op ${retryOn} opnieuw.${access} Werk je betaalmethode vóór die tijd bij om een onderbreking te voorkomen.`,
        ],
        action: 'Betaalmethode bijwerken',
        note: 'Je bank of betaalprovider kan je meer vertellen over waarom de betaling is geweigerd.',
        ignore: lapsed
          ? 'Heb je je abonnement al verlengd? Dan kun je deze e-mail negeren.'
          : 'Heb je je betaalmethode al bijgewerkt? Dan kun je deze e-mail negeren.',
      };
    },
    billing_renewal_reminder: ({ planName, amount, renewsOn }) => ({
      subject: 'Je Shieldline VPN-abonnement wordt over 3 dagen verlengd',
      preview: 'Een herinnering aan je volgende verlenging.',
      heading: 'Je abonnement wordt binnenkort verlengd',
      paragraphs: [
        `Je pakket ${planName} wordt op ${renewsOn} automatisch verlengd. We schrijven dan ${amount} af via je opgeslagen betaalmethode.`,
        'Wil je een ander pakket of een andere betaalmethode, of wil je automatisch verlengen uitzetten? Dat regel je op je lidmaatschapspagina.',
      ],
      action: 'Lidmaatschap beheren',
      note: 'Zorg dat je betaalmethode up-to-date is, zodat je abonnement zonder onderbreking wordt verlengd.',
      ignore: 'Wil je je abonnement houden? Dan hoef je niets te doen.',
    }),
    billing_canceled: ({ planName, endsOn }) => ({
      subject: 'Je Shieldline VPN-abonnement is opgezegd',
      preview:
        endsOn === null
          ? 'Je toegang tot de VPN is beëindigd.'
          : 'Je kunt de VPN blijven gebruiken tot het einde van je betaalde periode.',
      heading: 'Je abonnement is opgezegd',
      paragraphs:
        endsOn === null
          ? [
              `Je pakket ${planName} is per direct opgezegd en je toegang tot de VPN is beëindigd.`,
              'Je account blijft bestaan, dus je kunt je abonnement op elk moment heractiveren.',
            ]
          : [
              `Je pakket ${planName} is opgezegd en wordt niet verlengd. Je kunt Shieldline VPN nog gebruiken tot ${endsOn}.`,
              'Toch van gedachten veranderd? Heractiveer je abonnement vóór die datum, dan blijft alles zoals het is.',
            ],
      action: 'Abonnement heractiveren',
      note: 'We schrijven niets meer af, tenzij je je abonnement heractiveert.',
      ignore: 'Heb je je abonnement niet zelf opgezegd? Neem dan contact op met ons supportteam.',
    }),
    data_export_ready: ({ expiresAt }) => ({
      subject: 'Je Shieldline VPN-gegevens staan klaar om te downloaden',
      preview: 'De kopie van je gegevens waar je om vroeg staat klaar.',
      heading: 'Je gegevens staan klaar',
      paragraphs: [
        'De kopie van je Shieldline VPN-gegevens waar je om vroeg staat klaar: je profiel, apparaten, abonnementen, facturen en meer, als zip-bestand.',
        'Open de link terwijl je bent ingelogd op je account om hem te downloaden.',
      ],
      action: 'Je gegevens downloaden',
      note: `De link werkt één keer, tot ${expiresAt}.`,
      ignore:
        'Heb je niet om een kopie van je gegevens gevraagd? Log in, wijzig je wachtwoord en laat het ons supportteam weten.',
    }),
    family_invite: ({ ownerName, expiresOn }) => ({
      subject: 'Je bent uitgenodigd voor een Shieldline VPN-gezinsabonnement',
      preview: `${ownerName} wil zijn of haar VPN-abonnement met je delen.`,
      heading: 'Doe mee met een gezinsabonnement',
      paragraphs: [
        `${ownerName} nodigt je uit om Shieldline VPN te gebruiken via het gezinsabonnement, zonder kosten voor jou.`,
        'Open de uitnodiging om die te accepteren of af te wijzen. Heb je nog geen account? Dan kun je je eerst registreren met dit e-mailadres.',
      ],
      action: 'Uitnodiging openen',
      note: `De uitnodiging is geldig tot ${expiresOn}.`,
      ignore: 'Weet je niet wie dit stuurde? Dan kun je deze e-mail negeren.',
    }),
    billing_refunded: ({ amount, invoiceNumber }) => ({
      subject: 'Je terugbetaling van Shieldline VPN is onderweg',
      preview: 'Het geld gaat terug naar je betaalmethode.',
      heading: 'Je terugbetaling is onderweg',
      paragraphs: [
        `We hebben ${amount} terugbetaald voor factuur ${invoiceNumber}.`,
        'Het bedrag wordt teruggestort via de betaalmethode waarmee je hebt betaald.',
      ],
      action: 'Facturen bekijken',
      note: 'Afhankelijk van je bank of betaalprovider kan het een paar werkdagen duren voordat het bedrag is bijgeschreven.',
      ignore: 'Heb je geen terugbetaling aangevraagd? Neem dan contact op met ons supportteam.',
    }),
  },
};
