import { type SeoFields, seoFields } from '#shared/contracts/admin/content.ts';
import { isApiError, isCancelled, messageKeyOf } from '../../../api/api-error.ts';

/** The SEO fields of one translation or main page as the screen's inputs hold them. */
export interface SeoDraft {
  seo_title: string;
  seo_description: string;
  focus_keyphrase: string;
  /** The media id chosen in the library, or null for none. */
  og_image_id: number | null;
  canonical_url: string;
}

export type SeoField = keyof SeoDraft;
export const SEO_FIELDS: readonly SeoField[] = [
  'seo_title',
  'seo_description',
  'focus_keyphrase',
  'og_image_id',
  'canonical_url',
];

/** Refusals by field (i18n keys), and one for the whole form. */
export interface SeoRefusal {
  fields: Partial<Record<SeoField, string>>;
  form?: string | undefined;
  /** 409: someone saved the translation since it was read. */
  stale?: boolean;
}

type StoredSeo = {
  seo_title: string;
  seo_description: string;
  focus_keyphrase: string;
  og_image_id: number | null;
  canonical_url: string;
};

export function seoDraftOf(stored: StoredSeo | undefined): SeoDraft {
  return {
    seo_title: stored?.seo_title ?? '',
    seo_description: stored?.seo_description ?? '',
    focus_keyphrase: stored?.focus_keyphrase ?? '',
    og_image_id: stored?.og_image_id ?? null,
    canonical_url: stored?.canonical_url ?? '',
  };
}

export function sameSeoDraft(a: SeoDraft, b: SeoDraft): boolean {
  return SEO_FIELDS.every((field) => a[field] === b[field]);
}

/**
 * The fields as a save sends them, checked in the browser with the contract's own schema
 * first, so a refusal the server would give shows under its field without a round trip.
 */
export function seoRequestOf(
  draft: SeoDraft,
): { ok: true; fields: SeoFields } | { ok: false; refusal: SeoRefusal } {
  const parsed = seoFields.safeParse(draft);
  if (parsed.success) return { ok: true, fields: parsed.data };
  const fields: SeoRefusal['fields'] = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0]) as SeoField;
    fields[field] ??= issue.message;
  }
  return { ok: false, refusal: { fields } };
}

/** A failed save as the form shows it: each field's first message under it, the rest above. */
export function refusalOf(error: unknown): SeoRefusal | undefined {
  if (isCancelled(error)) return undefined;
  if (!isApiError(error)) {
    console.error(error);
    return { fields: {}, form: messageKeyOf('internal') };
  }
  const fields: SeoRefusal['fields'] = {};
  let unplaced: string | undefined;
  for (const [path, messages] of Object.entries(error.validation)) {
    const field = path.split('.')[0] as SeoField;
    if (SEO_FIELDS.includes(field)) fields[field] ??= messages[0];
    else unplaced ??= messages[0];
  }
  const placed = Object.keys(fields).length > 0;
  return {
    fields,
    form: error.info[0] ?? unplaced ?? (placed ? undefined : messageKeyOf(error.code)),
    stale: error.status === 409,
  };
}
