import { formatDuration, type MailTexts } from '../mail-texts.ts';

export const en: MailTexts = {
  greeting: (name) => (name ? `Hi ${name},` : 'Hi,'),
  linkHint: 'If the button does not work, copy this link into your browser:',
  signature: 'The Shieldline VPN team',
  footer: 'This is an automatic message about your Shieldline VPN account.',
  templates: {
    email_verify: () => ({
      subject: 'Confirm your e-mail address',
      preview: 'One click to finish setting up your Shieldline VPN account.',
      heading: 'Confirm your e-mail address',
      paragraphs: [
        'Thanks for signing up for Shieldline VPN. Please confirm that this e-mail address belongs to you, so we can reach you about your account and your subscription.',
      ],
      action: 'Confirm e-mail address',
      ignore: "If you didn't create a Shieldline VPN account, you can safely ignore this e-mail.",
    }),
    password_reset: ({ expiresInMinutes }) => ({
      subject: 'Reset your Shieldline VPN password',
      preview: 'Choose a new password for your account.',
      heading: 'Reset your password',
      paragraphs: [
        'We received a request to reset the password of your Shieldline VPN account. Use the button below to choose a new one.',
      ],
      action: 'Choose a new password',
      note: `This link expires in ${formatDuration('en', expiresInMinutes)} and works only once.`,
      ignore:
        "If you didn't ask to reset your password, you can ignore this e-mail. Your password stays the same.",
    }),
    password_set: () => ({
      subject: 'Set a password for your Shieldline VPN account',
      preview: 'Choose a password to sign in with your e-mail address.',
      heading: 'Set your password',
      paragraphs: [
        'To sign in with your e-mail address and a password, choose a password for your Shieldline VPN account.',
      ],
      action: 'Set password',
      ignore:
        "If you didn't ask to set a password, you can ignore this e-mail. Nothing changes on your account.",
    }),
    email_change: ({ newEmail }) => ({
      subject: 'Confirm your new e-mail address',
      preview: 'Confirm the change to finish updating your account.',
      heading: 'Confirm your new e-mail address',
      paragraphs: [
        `You asked to change the e-mail address of your Shieldline VPN account to ${newEmail}.`,
        'Confirm the change to start using this address to sign in and to receive our messages.',
      ],
      action: 'Confirm new address',
      ignore:
        "If you didn't ask for this change, you can ignore this e-mail. Your account keeps its current address.",
    }),
    password_changed: () => ({
      subject: 'Your Shieldline VPN password was changed',
      preview: 'A security notice about your account.',
      heading: 'Your password was changed',
      paragraphs: [
        'The password of your Shieldline VPN account has just been changed.',
        "If this wasn't you, reset your password right away to secure your account, and let our support team know.",
      ],
      action: 'Reset password',
      ignore: 'If you made this change yourself, you can ignore this e-mail.',
    }),
    billing_receipt: ({ planName, amount, invoiceNumber, periodEnd }) => ({
      subject: 'Your Shieldline VPN payment receipt',
      preview: 'Thanks for your payment. Your invoice is ready in your account.',
      heading: 'Payment received',
      paragraphs: [
        `Thank you! We've received your payment of ${amount} for your ${planName} plan.`,
        `Your subscription is paid until ${periodEnd}. You can view and download the invoice at any time on the Invoices page of your account.`,
      ],
      action: 'View invoices',
      note: `Invoice number: ${invoiceNumber}`,
      ignore: "If you didn't make this payment, please contact our support team right away.",
    }),
    billing_payment_failed: ({ planName, amount, reason, retryOn, graceEndsOn }) => {
      const lapsed = retryOn === null;
      const access = graceEndsOn === null ? '' : ` Your VPN keeps working until ${graceEndsOn}.`;
      return {
        subject: lapsed
          ? 'Your Shieldline VPN subscription has lapsed'
          : "We couldn't renew your Shieldline VPN subscription",
        preview: lapsed
          ? 'Update your payment method to get your VPN access back.'
          : 'Update your payment method to keep your VPN access.',
        heading: lapsed ? 'Your subscription has lapsed' : "Your payment didn't go through",
        paragraphs: [
          `We tried to charge ${amount} for your ${planName} plan, but the payment failed.`,
          `Reason: ${reason}`,
          lapsed
            ? 'That was our last attempt, so your subscription has lapsed and your VPN access has ended. Update your payment method to renew your subscription and get your access back.'
            : `We'll try again on ${retryOn}.${access} Update your payment method before then to avoid any interruption.`,
        ],
        action: 'Update payment method',
        note: 'Your bank or payment provider can tell you more about why the payment was declined.',
        ignore: lapsed
          ? "If you've already renewed your subscription, you can ignore this e-mail."
          : "If you've already updated your payment method, you can ignore this e-mail.",
      };
    },
    billing_renewal_reminder: ({ planName, amount, renewsOn }) => ({
      subject: 'Your Shieldline VPN subscription renews in 3 days',
      preview: 'A reminder about your upcoming renewal.',
      heading: 'Your subscription renews soon',
      paragraphs: [
        `Your ${planName} plan renews automatically on ${renewsOn}, and we'll charge ${amount} to your saved payment method.`,
        'To change your plan or payment method, or to turn off automatic renewal, go to your membership page.',
      ],
      action: 'Manage membership',
      note: 'Make sure your payment method is up to date, so your subscription renews without interruption.',
      ignore: "If you'd like to keep your subscription, you don't need to do anything.",
    }),
    billing_canceled: ({ planName, endsOn }) => ({
      subject: 'Your Shieldline VPN subscription has been canceled',
      preview:
        endsOn === null
          ? 'Your VPN access has ended.'
          : 'You can keep using the VPN until the end of your paid period.',
      heading: 'Your subscription has been canceled',
      paragraphs:
        endsOn === null
          ? [
              `Your ${planName} plan has been canceled with immediate effect, and your VPN access has ended.`,
              'Your account stays, so you can reactivate your subscription whenever you like.',
            ]
          : [
              `Your ${planName} plan has been canceled and won't renew. You can keep using Shieldline VPN until ${endsOn}.`,
              'Changed your mind? Reactivate your subscription before then, and everything stays as it is.',
            ],
      action: 'Reactivate subscription',
      note: "We won't charge you again unless you reactivate your subscription.",
      ignore: "If you didn't cancel your subscription, please contact our support team.",
    }),
    data_export_ready: ({ expiresAt }) => ({
      subject: 'Your Shieldline VPN data is ready to download',
      preview: 'The copy of your data you asked for is ready.',
      heading: 'Your data is ready',
      paragraphs: [
        'The copy of your Shieldline VPN data you asked for is ready: your profile, devices, subscriptions, invoices and more, as a ZIP file.',
        'Open the link while signed in to your account to download it.',
      ],
      action: 'Download your data',
      note: `The link works once, until ${expiresAt}.`,
      ignore:
        "If you didn't ask for a copy of your data, sign in and change your password, and let our support team know.",
    }),
    family_invite: ({ ownerName, expiresOn }) => ({
      subject: 'You are invited to share a Shieldline VPN family plan',
      preview: `${ownerName} wants to share their VPN plan with you.`,
      heading: 'Join a family plan',
      paragraphs: [
        `${ownerName} invites you to use Shieldline VPN on their family plan, at no cost to you.`,
        'Open the invite to accept or decline it. If you have no account yet, you can sign up with this e-mail address first.',
      ],
      action: 'Open the invite',
      note: `The invite works until ${expiresOn}.`,
      ignore: "If you don't know who sent this, you can ignore this e-mail.",
    }),
    billing_refunded: ({ amount, invoiceNumber }) => ({
      subject: 'Your Shieldline VPN refund is on its way',
      preview: 'The money is going back to your payment method.',
      heading: 'Your refund is on its way',
      paragraphs: [
        `We've issued a refund of ${amount} for invoice ${invoiceNumber}.`,
        'The money goes back to the payment method you paid with.',
      ],
      action: 'View invoices',
      note: 'Depending on your bank or payment provider, it may take a few business days to appear on your statement.',
      ignore: "If you didn't ask for a refund, please contact our support team.",
    }),
  },
};
