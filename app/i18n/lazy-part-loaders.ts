import type { Messages } from './i18n.ts';

/**
 * The loaders of the parts in LAZY_PARTS (i18n.ts), every file but the first bundle's six:
 * out of the public home's JavaScript, fetched with the first screen that needs a part.
 */
export const lazyPartLoaders: Record<string, () => Promise<Messages>> = import.meta.glob<Messages>(
  ['./locales/*/*.json', '!./locales/*/{common,errors,layout,routes,toasts,ui}.json'],
  { import: 'default' },
);
