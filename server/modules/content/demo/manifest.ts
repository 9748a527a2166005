// The demo content's shape (issue 22, "Demo content"): which pages, posts, help-center
// articles and FAQ pages exist, and where each belongs. The prose itself is Markdown, one
// file per item and language, under `demo/<lang>/`; category names per language are in
// `demo/<lang>/categories.json`. Links between items are written `content:<kind>/<key>`
// and become the item's public address in the language when seeded.

import type { MainPage } from '#shared/content/content-values.ts';

/** The pages the site's footer names; each is a static page (it cannot be deleted). */
export const DEMO_PAGES = [
  'pricing',
  'features',
  'servers',
  'download',
  'what-is-a-vpn',
  'terms-of-service',
  'privacy-policy',
] as const;

/** Blog categories. */
export const DEMO_BLOG_CATEGORIES = ['privacy', 'guides', 'news'] as const;

/** Blog posts, each in one category, newest last. */
export const DEMO_POSTS = [
  { key: 'wireguard-explained', category: 'guides' },
  { key: 'public-wifi-safety', category: 'privacy' },
  { key: 'streaming-abroad', category: 'guides' },
  { key: 'no-logs-policy', category: 'privacy' },
  { key: 'keys-on-your-device', category: 'privacy' },
  { key: 'network-2026', category: 'news' },
  { key: 'family-sharing-launch', category: 'news' },
] as const;

/** Help-center categories: four at the top, each with its sub-categories, in this order. */
export const DEMO_HELP_CATEGORIES = [
  { key: 'getting-started', children: ['setup', 'account-basics'] },
  { key: 'billing', children: ['payments', 'plans-and-refunds'] },
  { key: 'troubleshooting', children: ['connection-problems', 'speed'] },
  { key: 'privacy-security', children: ['data-we-keep', 'security-features'] },
] as const;

/** Help-center articles, each in a sub-category, in their manual order. */
export const DEMO_ARTICLES = [
  { key: 'add-a-device', category: 'setup' },
  { key: 'setup-windows-macos', category: 'setup' },
  { key: 'setup-iphone-android', category: 'setup' },
  { key: 'setup-linux', category: 'setup' },
  { key: 'setup-router', category: 'setup' },
  { key: 'create-account', category: 'account-basics' },
  { key: 'two-factor', category: 'account-basics' },
  { key: 'device-limit', category: 'account-basics' },
  { key: 'payment-methods', category: 'payments' },
  { key: 'fix-failed-payment', category: 'payments' },
  { key: 'invoices', category: 'payments' },
  { key: 'change-plan', category: 'plans-and-refunds' },
  { key: 'cancel-subscription', category: 'plans-and-refunds' },
  { key: 'refund-policy', category: 'plans-and-refunds' },
  { key: 'no-handshake', category: 'connection-problems' },
  { key: 'traffic-limit-reached', category: 'connection-problems' },
  { key: 'slow-connection', category: 'speed' },
  { key: 'choose-server', category: 'speed' },
  { key: 'what-we-log', category: 'data-we-keep' },
  { key: 'delete-account', category: 'data-we-keep' },
  { key: 'dns-leaks', category: 'security-features' },
] as const;

/** FAQ pages; each holds its questions (`## ` headings in its file). */
export const DEMO_FAQ = ['general', 'billing'] as const;

/** The FAQ each main page shows (its `main_page_faqs` row): billing on pricing. */
export const DEMO_MAIN_PAGE_FAQS = [
  { page: 'pricing', faq: 'billing' },
  { page: 'home', faq: 'general' },
  { page: 'help_center', faq: 'general' },
] as const satisfies readonly { page: MainPage; faq: (typeof DEMO_FAQ)[number] }[];
