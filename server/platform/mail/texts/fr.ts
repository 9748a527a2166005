import { formatDuration, type MailTexts } from '../mail-texts.ts';

// Vouvoiement, as in the app's French texts; a no-break space goes before « : ».
export const fr: MailTexts = {
  greeting: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
  linkHint: 'Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur\u00a0:',
  signature: 'L’équipe Shieldline VPN',
  footer: 'Ceci est un message automatique concernant votre compte Shieldline VPN.',
  templates: {
    email_verify: () => ({
      subject: 'Confirmez votre adresse e-mail',
      preview: 'Plus qu’un clic pour finaliser votre compte Shieldline VPN.',
      heading: 'Confirmez votre adresse e-mail',
      paragraphs: [
        'Merci pour votre inscription à Shieldline VPN. Confirmez que cette adresse e-mail vous appartient afin que nous puissions vous écrire au sujet de votre compte et de votre abonnement.',
      ],
      action: 'Confirmer mon adresse e-mail',
      ignore: 'Si vous n’avez pas créé de compte Shieldline VPN, vous pouvez ignorer cet e-mail.',
    }),
    password_reset: ({ expiresInMinutes }) => ({
      subject: 'Réinitialisez votre mot de passe Shieldline VPN',
      preview: 'Choisissez un nouveau mot de passe pour votre compte.',
      heading: 'Réinitialisez votre mot de passe',
      paragraphs: [
        'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte Shieldline VPN. Utilisez le bouton ci-dessous pour en choisir un nouveau.',
      ],
      action: 'Choisir un nouveau mot de passe',
      note: `Ce lien expire dans ${formatDuration('fr', expiresInMinutes)} et ne peut servir qu’une seule fois.`,
      ignore:
        'Si vous n’avez pas demandé cette réinitialisation, vous pouvez ignorer cet e-mail\u00a0: votre mot de passe reste inchangé.',
    }),
    password_set: () => ({
      subject: 'Définissez un mot de passe pour votre compte Shieldline VPN',
      preview: 'Choisissez un mot de passe pour vous connecter avec votre adresse e-mail.',
      heading: 'Définissez votre mot de passe',
      paragraphs: [
        'Pour vous connecter avec votre adresse e-mail et un mot de passe, choisissez un mot de passe pour votre compte Shieldline VPN.',
      ],
      action: 'Définir mon mot de passe',
      ignore:
        'Si vous n’avez pas demandé à définir un mot de passe, vous pouvez ignorer cet e-mail. Rien ne change sur votre compte.',
    }),
    email_change: ({ newEmail }) => ({
      subject: 'Confirmez votre nouvelle adresse e-mail',
      preview: 'Confirmez la modification pour mettre à jour votre compte.',
      heading: 'Confirmez votre nouvelle adresse e-mail',
      paragraphs: [
        `Vous avez demandé à remplacer l’adresse e-mail de votre compte Shieldline VPN par ${newEmail}.`,
        'Confirmez la modification pour utiliser cette adresse pour vous connecter et recevoir nos messages.',
      ],
      action: 'Confirmer la nouvelle adresse',
      ignore:
        'Si vous n’avez pas demandé cette modification, vous pouvez ignorer cet e-mail. Votre compte conserve son adresse actuelle.',
    }),
    password_changed: () => ({
      subject: 'Le mot de passe de votre compte Shieldline VPN a été modifié',
      preview: 'Une alerte de sécurité concernant votre compte.',
      heading: 'Votre mot de passe a été modifié',
      paragraphs: [
        'Le mot de passe de votre compte Shieldline VPN vient d’être modifié.',
        'Si ce n’était pas vous, réinitialisez votre mot de passe dès maintenant pour sécuriser votre compte, puis prévenez notre équipe d’assistance.',
      ],
      action: 'Réinitialiser mon mot de passe',
      ignore: 'Si vous êtes à l’origine de cette modification, vous pouvez ignorer cet e-mail.',
    }),
  },
};
