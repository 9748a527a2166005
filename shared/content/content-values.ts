// The content model's vocabulary (issue 22), read by the database schema, the contracts,
// the staff screens and, later, the public pages.

import type { Lang } from '../locales.ts';

/** The language every item is written in first: a missing translation shows its text. */
export const CONTENT_DEFAULT_LANG: Lang = 'en';

/**
 * What an item is. Pages are free pages at an address staff choose; static pages are the
 * pages the site's own structure links to (terms, privacy, pricing …: they have a fixed
 * `key` and cannot be deleted); posts are the blog's; articles the help center's; an FAQ is
 * a titled list of questions.
 */
export const CONTENT_KINDS = ['page', 'static_page', 'post', 'article', 'faq'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

/**
 * Where a slug must be unique, per language: pages and static pages share the site's top
 * level (`/{lang}/{slug}`), the others have their own section.
 */
export const SLUG_SPACES = ['page', 'post', 'article', 'faq'] as const;
export type SlugSpace = (typeof SLUG_SPACES)[number];

export function slugSpaceOf(kind: ContentKind): SlugSpace {
  return kind === 'static_page' ? 'page' : kind;
}

/**
 * A translation's state. Scheduled becomes published at `publish_at`; published becomes
 * unpublished at `unpublish_at` when one is set. Only published text is public.
 */
export const CONTENT_STATES = ['draft', 'scheduled', 'published', 'unpublished'] as const;
export type ContentState = (typeof CONTENT_STATES)[number];

/** Category trees: the blog's (flat) and the help center's (with sub-categories). */
export const CATEGORY_KINDS = ['blog', 'help'] as const;
export type CategoryKind = (typeof CATEGORY_KINDS)[number];

/** The site's main pages, each with its own SEO settings per language. */
export const MAIN_PAGES = [
  'home',
  'pricing',
  'features',
  'servers',
  'download',
  'blog',
  'help_center',
  'what_is_a_vpn',
] as const;
export type MainPage = (typeof MAIN_PAGES)[number];

/** A slug: lowercase ASCII words joined by single hyphens (Russian is transliterated). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX = 120;

/** A body's source at most (UTF-8 bytes): far past any article, short of abuse. */
export const BODY_MAX_BYTES = 200 * 1024;

/** Questions of one FAQ at most. */
export const FAQ_QUESTIONS_MAX = 100;

/** Help-center category depth: a category and its sub-categories. */
export const CATEGORY_MAX_DEPTH = 2;
