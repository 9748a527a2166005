import type {
  ContentCategory,
  ContentListItem,
  ContentMediaItem,
} from '#shared/contracts/admin/content.ts';
import type { Lang } from '#shared/locales.ts';

// What the content screens' tests stand the server's answers in with.

/** A category with a translation a language, named as given (its address made of the name). */
export function testCategory(
  category_id: number,
  names: Partial<Record<Lang, string>>,
  extra: Partial<ContentCategory> = {},
): ContentCategory {
  return {
    category_id,
    kind: 'blog',
    parent_category_id: null,
    position: category_id,
    items_count: 0,
    translations: Object.entries(names).map(([lang, name]) => ({
      lang: lang as Lang,
      name,
      url: name.toLowerCase().replaceAll(' ', '-'),
      description: '',
      seo_title: `${name} | Blog`,
      seo_description: '',
      focus_keyphrase: '',
      og_image_id: null,
      canonical_url: '',
      version: 1,
    })),
    ...extra,
  };
}

const AT = '2026-11-20T10:00:00Z';

/** An item as the content lists show it: published in English, named as given. */
export function testListItem(
  id: number,
  name: string,
  extra: Partial<Omit<ContentListItem, 'translations'>> = {},
): ContentListItem {
  return {
    id,
    kind: 'post',
    key: null,
    category: null,
    position: id,
    author: null,
    updated_at: AT,
    translations: [
      {
        lang: 'en',
        name,
        url: name.toLowerCase().replaceAll(' ', '-'),
        state: 'published',
        publish_at: null,
        unpublish_at: null,
        published_at: AT,
        updated_at: AT,
        seo_title: '',
        seo_description: '',
      },
    ],
    ...extra,
  };
}

/** A 1×1 PNG: an image that loads without a server. */
export const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** An image of the media library, shown as `PIXEL`. */
export function testMedia(id: number, alt: string, uses = 0): ContentMediaItem {
  return {
    media_id: id,
    url: PIXEL,
    width: 1200,
    height: 630,
    bytes: 2_048,
    alt,
    original_name: `image-${id}.png`,
    uses,
    created_at: AT,
  };
}
