import type { ContentKind } from '#shared/content/content-values.ts';

/** What a committed content change touched, for whoever shows content (the public site). */
export type ContentChange =
  /** An item's text, state, address or SEO fields (any of its languages). */
  | { type: 'item'; id: number; kinds: readonly ContentKind[] }
  /** A section's order or categories (every list of those kinds). */
  | { type: 'section'; kinds: readonly ContentKind[] }
  /** A main page's SEO settings or FAQ. */
  | { type: 'main_page'; page: string }
  /** Images: bodies that show them may have changed. */
  | { type: 'media' };

/**
 * Content's after-commit listeners (like billing's, billing-listeners.ts): content does not
 * know who shows it. A listener must be quick and must not throw.
 */
export class ContentChanges {
  readonly #listeners: ((change: ContentChange) => void)[] = [];

  on(listener: (change: ContentChange) => void): void {
    this.#listeners.push(listener);
  }

  emit(change: ContentChange): void {
    for (const listener of this.#listeners) listener(change);
  }
}
