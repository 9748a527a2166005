import type { Lang } from '#shared/locales.ts';

// The words a public page uses, and only those: they travel with the page for hydration, so
// they are picked from the message files rather than sent whole.

type Messages = Record<string, unknown>;

const PICK = {
  common: ['app', 'footer', 'language'],
  layout: ['layout', 'site'],
  'public-site': ['public_site'],
} as const;

const files = import.meta.glob<Messages>(
  '../i18n/locales/*/{common,layout,public-site,order}.json',
  {
    import: 'default',
    eager: true,
  },
);

function file(lang: Lang, part: string): Messages {
  return files[`../i18n/locales/${lang}/${part}.json`] ?? {};
}

/** A public page's messages in `lang`. */
export function siteMessages(lang: Lang): Messages {
  const messages: Messages = {};
  for (const [part, keys] of Object.entries(PICK)) {
    const all = file(lang, part);
    for (const key of keys) messages[key] = all[key];
  }
  // The plan cards say what the order page says about a plan.
  const order = (file(lang, 'order').order ?? {}) as Messages;
  messages.order = { plan: order.plan, period: order.period };
  return messages;
}
