import type { ContentState } from '#shared/content/content-values.ts';
import type { ContentTranslation } from '#shared/contracts/admin/content.ts';
import type { Lang } from '#shared/locales.ts';

/** One language of an item as its editor's fields hold it (dates as the input shows them). */
export interface ContentDraft {
  name: string;
  url: string;
  summary: string;
  contents: string;
  /** Tag names separated by commas. */
  tags: string;
  questions: { question: string; answer: string }[];
  seo_title: string;
  seo_description: string;
  focus_keyphrase: string;
  canonical_url: string;
  og_image_id: number | null;
  state: ContentState;
  /** `YYYY-MM-DDTHH:mm` in the staff member's time zone, or ''. */
  publish_at: string;
  unpublish_at: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` input shows it, in this browser's time zone. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (this browser's time zone) as an instant, or null. */
export function fromLocalInput(value: string): string | null {
  if (value === '') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export function draftOf(translation: ContentTranslation | undefined): ContentDraft {
  return {
    name: translation?.name ?? '',
    url: translation?.url ?? '',
    summary: translation?.summary ?? '',
    contents: translation?.contents ?? '',
    tags: translation?.tags.join(', ') ?? '',
    questions: translation?.questions.map((q) => ({ ...q })) ?? [],
    seo_title: translation?.seo_title ?? '',
    seo_description: translation?.seo_description ?? '',
    focus_keyphrase: translation?.focus_keyphrase ?? '',
    canonical_url: translation?.canonical_url ?? '',
    og_image_id: translation?.og_image_id ?? null,
    state: translation?.state ?? 'draft',
    publish_at: toLocalInput(translation?.publish_at ?? null),
    unpublish_at: toLocalInput(translation?.unpublish_at ?? null),
  };
}

/** The save request's translation fields. */
export function requestOf(draft: ContentDraft, lang: Lang) {
  return {
    lang,
    name: draft.name,
    url: draft.url.trim(),
    summary: draft.summary,
    contents: draft.contents,
    tags: draft.tags
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== ''),
    questions: draft.questions,
    seo_title: draft.seo_title,
    seo_description: draft.seo_description,
    focus_keyphrase: draft.focus_keyphrase,
    canonical_url: draft.canonical_url,
    og_image_id: draft.og_image_id,
    state: draft.state,
    publish_at: draft.state === 'scheduled' ? fromLocalInput(draft.publish_at) : null,
    unpublish_at: fromLocalInput(draft.unpublish_at),
  };
}

export function sameDraft(a: ContentDraft, b: ContentDraft): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
