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
    billing_receipt: ({ planName, amount, invoiceNumber, periodEnd }) => ({
      subject: 'Votre reçu de paiement Shieldline VPN',
      preview: 'Merci pour votre paiement. Votre facture est disponible dans votre compte.',
      heading: 'Paiement reçu',
      paragraphs: [
        `Merci\u00a0! Nous avons bien reçu votre paiement de ${amount} pour votre formule ${planName}.`,
        `Votre abonnement est réglé jusqu’au ${periodEnd}. Vous pouvez consulter et télécharger la facture à tout moment sur la page Factures de votre compte.`,
      ],
      action: 'Voir mes factures',
      note: `Numéro de facture\u00a0: ${invoiceNumber}`,
      ignore:
        'Si vous n’êtes pas à l’origine de ce paiement, contactez rapidement notre équipe d’assistance.',
    }),
    billing_payment_failed: ({ planName, amount, reason, retryOn, graceEndsOn }) => {
      const lapsed = retryOn === null;
      const access = graceEndsOn === null ? '' : ` Votre VPN reste actif jusqu’au ${graceEndsOn}.`;
      return {
        subject: lapsed
          ? 'Votre abonnement Shieldline VPN a expiré'
          : 'Le renouvellement de votre abonnement Shieldline VPN a échoué',
        preview: lapsed
          ? 'Mettez à jour votre moyen de paiement pour retrouver l’accès au VPN.'
          : 'Mettez à jour votre moyen de paiement pour garder l’accès au VPN.',
        heading: lapsed ? 'Votre abonnement a expiré' : 'Votre paiement n’a pas abouti',
        paragraphs: [
          `Nous avons tenté de prélever ${amount} pour votre formule ${planName}, mais le paiement n’a pas abouti.`,
          `Motif\u00a0: ${reason}`,
          lapsed
            ? 'C’était notre dernière tentative\u00a0: votre abonnement a donc expiré et votre accès au VPN a pris fin. Mettez à jour votre moyen de paiement pour renouveler votre abonnement et retrouver l’accès.'
            : `Nous réessaierons le ${retryOn}.${access} Mettez à jour votre moyen de paiement d’ici là pour éviter toute interruption.`,
        ],
        action: 'Mettre à jour mon moyen de paiement',
        note: 'Votre banque ou votre prestataire de paiement peut vous en dire plus sur le motif du refus.',
        ignore: lapsed
          ? 'Si vous avez déjà renouvelé votre abonnement, vous pouvez ignorer cet e-mail.'
          : 'Si vous avez déjà mis à jour votre moyen de paiement, vous pouvez ignorer cet e-mail.',
      };
    },
    billing_renewal_reminder: ({ planName, amount, renewsOn }) => ({
      subject: 'Votre abonnement Shieldline VPN sera renouvelé dans 3 jours',
      preview: 'Un rappel avant votre prochain renouvellement.',
      heading: 'Votre abonnement sera bientôt renouvelé',
      paragraphs: [
        `Votre formule ${planName} sera renouvelée automatiquement le ${renewsOn}, et nous prélèverons ${amount} sur votre moyen de paiement enregistré.`,
        'Pour changer de formule ou de moyen de paiement, ou pour désactiver le renouvellement automatique, rendez-vous sur la page Abonnement de votre compte.',
      ],
      action: 'Gérer mon abonnement',
      note: 'Vérifiez que votre moyen de paiement est à jour pour que votre abonnement soit renouvelé sans interruption.',
      ignore: 'Si vous souhaitez conserver votre abonnement, vous n’avez rien à faire.',
    }),
    billing_canceled: ({ planName, endsOn }) => ({
      subject: 'Votre abonnement Shieldline VPN a été résilié',
      preview:
        endsOn === null
          ? 'Votre accès au VPN a pris fin.'
          : 'Vous gardez l’accès au VPN jusqu’à la fin de la période payée.',
      heading: 'Votre abonnement a été résilié',
      paragraphs:
        endsOn === null
          ? [
              `Votre formule ${planName} a été résiliée avec effet immédiat et votre accès au VPN a pris fin.`,
              'Votre compte est conservé\u00a0: vous pouvez réactiver votre abonnement à tout moment.',
            ]
          : [
              `Votre formule ${planName} a été résiliée et ne sera pas renouvelée. Vous pouvez continuer à utiliser Shieldline VPN jusqu’au ${endsOn}.`,
              'Vous avez changé d’avis\u00a0? Réactivez votre abonnement d’ici là, et rien ne change pour vous.',
            ],
      action: 'Réactiver mon abonnement',
      note: 'Plus aucun prélèvement ne sera effectué, sauf si vous réactivez votre abonnement.',
      ignore: 'Si vous n’avez pas résilié votre abonnement, contactez notre équipe d’assistance.',
    }),
    data_export_ready: ({ expiresAt }) => ({
      subject: 'Vos données Shieldline VPN sont prêtes à être téléchargées',
      preview: 'La copie de vos données que vous avez demandée est prête.',
      heading: 'Vos données sont prêtes',
      paragraphs: [
        'La copie de vos données Shieldline VPN que vous avez demandée est prête : votre profil, vos appareils, vos abonnements, vos factures et plus encore, dans un fichier ZIP.',
        'Ouvrez le lien en étant connecté à votre compte pour la télécharger.',
      ],
      action: 'Télécharger vos données',
      note: `Le lien ne fonctionne qu’une fois, jusqu’au ${expiresAt}.`,
      ignore:
        'Si vous n’avez pas demandé de copie de vos données, connectez-vous, changez votre mot de passe et prévenez notre équipe d’assistance.',
    }),
    family_invite: ({ ownerName, expiresOn }) => ({
      subject: 'Vous êtes invité à partager un forfait famille Shieldline VPN',
      preview: `${ownerName} souhaite partager son forfait VPN avec vous.`,
      heading: 'Rejoignez un forfait famille',
      paragraphs: [
        `${ownerName} vous invite à utiliser Shieldline VPN avec son forfait famille, sans frais pour vous.`,
        'Ouvrez l’invitation pour l’accepter ou la refuser. Si vous n’avez pas encore de compte, vous pouvez d’abord vous inscrire avec cette adresse e-mail.',
      ],
      action: 'Ouvrir l’invitation',
      note: `L’invitation est valable jusqu’au ${expiresOn}.`,
      ignore: 'Si vous ne savez pas qui vous l’a envoyée, vous pouvez ignorer cet e-mail.',
    }),
    billing_refunded: ({ amount, invoiceNumber }) => ({
      subject: 'Votre remboursement Shieldline VPN est en cours',
      preview: 'La somme sera reversée sur votre moyen de paiement.',
      heading: 'Votre remboursement est en cours',
      paragraphs: [
        `Nous avons effectué un remboursement de ${amount} pour la facture ${invoiceNumber}.`,
        'La somme sera reversée sur le moyen de paiement utilisé pour cet achat.',
      ],
      action: 'Voir mes factures',
      note: 'Selon votre banque ou votre prestataire de paiement, quelques jours ouvrés peuvent être nécessaires avant que le remboursement n’apparaisse sur votre relevé.',
      ignore: 'Si vous n’avez pas demandé de remboursement, contactez notre équipe d’assistance.',
    }),
  },
};
