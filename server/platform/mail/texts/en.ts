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
  },
};
