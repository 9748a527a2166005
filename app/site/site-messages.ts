// The words a public page uses, and only those: picked from the message files the server
// renders with (eagerly) and the browser loads after the page has painted (lazily, each file a
// cached chunk of its own), so both hold exactly the same words.

export type Messages = Record<string, unknown>;

/** The message files public pages read. */
export const SITE_PARTS = ['common', 'layout', 'public-site', 'order'] as const;
export type SitePart = (typeof SITE_PARTS)[number];

const PICK: Record<Exclude<SitePart, 'order'>, readonly string[]> = {
  common: ['app', 'footer', 'language'],
  layout: ['layout', 'site'],
  'public-site': ['public_site'],
};

/** A public page's messages from its language's files. */
export function pickSiteMessages(files: Record<SitePart, Messages>): Messages {
  const messages: Messages = {};
  for (const [part, keys] of Object.entries(PICK) as [keyof typeof PICK, readonly string[]][]) {
    for (const key of keys) messages[key] = files[part][key];
  }
  // The plan cards say what the order page says about a plan.
  const order = (files.order.order ?? {}) as Messages;
  messages.order = { plan: order.plan, period: order.period };
  return messages;
}
