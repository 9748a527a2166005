import type { Lang } from '#shared/locales.ts';

/** What each message needs from its caller. Every string here is untrusted user data. */
export interface TemplateData {
  email_verify: { name: string; link: string };
  password_reset: { name: string; link: string; expiresInMinutes: number };
  password_set: { name: string; link: string };
  email_change: { name: string; link: string; newEmail: string };
  /** A security notice; its link (to the forgot-password page) comes from APP_URL. */
  password_changed: { name: string };
  // Billing: amounts and dates arrive formatted by the caller (Intl, in the recipient's
  // language), so a template only places them.
  /** A payment went through; the link leads to the invoices page. */
  billing_receipt: {
    name: string;
    planName: string;
    amount: string;
    invoiceNumber: string;
    periodEnd: string;
    link: string;
  };
  /** A renewal payment failed; the link leads to fixing the payment method. */
  billing_payment_failed: {
    name: string;
    planName: string;
    amount: string;
    /** The gateway's reason, shown as given. */
    reason: string;
    /** The next attempt; null after the last one, when the subscription has lapsed. */
    retryOn: string | null;
    /** Until when access stays on while we retry. */
    graceEndsOn: string | null;
    link: string;
  };
  /** Sent 3 days before a renewal; the link leads to the membership page. */
  billing_renewal_reminder: {
    name: string;
    planName: string;
    amount: string;
    renewsOn: string;
    link: string;
  };
  /** The link leads to reactivating the subscription. */
  billing_canceled: {
    name: string;
    planName: string;
    /** The end of the paid period, when canceled at its end; null when canceled at once. */
    endsOn: string | null;
    link: string;
  };
  /** The link leads to the invoices page. */
  billing_refunded: { name: string; amount: string; invoiceNumber: string; link: string };
  /**
   * §4 an invite to a family plan's seat; the link leads to /familysharing/invite/verify.
   * `name` is the address invited (it may have no account), `ownerName` who invites.
   */
  family_invite: { name: string; ownerName: string; expiresOn: string; link: string };
  /**
   * The export of the person's data is ready (issue 25); the link opens the page that
   * downloads it, once, until `expiresAt` (date and time, formatted by the caller).
   */
  data_export_ready: { name: string; expiresAt: string; link: string };
}

export type TemplateName = keyof TemplateData;

/** The wording of one message; the layout adds greeting, link, signature and footer. */
export interface MailContent {
  /** Never holds user data, so a name cannot inject anything into a header. */
  subject: string;
  /** The hidden line most mail apps show beside the subject. */
  preview: string;
  heading: string;
  paragraphs: string[];
  /** The button's label. */
  action: string;
  /** A line below the link, such as when it expires. */
  note?: string;
  /** What to do if the recipient did not ask for this message. */
  ignore: string;
}

/** One language's wording of every message, one module per language under `texts/`. */
export interface MailTexts {
  greeting(name: string): string;
  /** Introduces the raw link below the button, for mail apps that block buttons. */
  linkHint: string;
  signature: string;
  footer: string;
  templates: { [T in TemplateName]: (data: TemplateData[T]) => MailContent };
}

/** "1 hour", "90 minutes" in the recipient's language; ICU handles the plural forms. */
export function formatDuration(locale: Lang, minutes: number): string {
  const whole = minutes % 60 === 0;
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: whole ? 'hour' : 'minute',
    unitDisplay: 'long',
  }).format(whole ? minutes / 60 : minutes);
}
