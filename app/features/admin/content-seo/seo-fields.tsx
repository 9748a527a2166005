import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { DESCRIPTION_CHARS, TITLE_CHARS } from '#shared/content/text-width.ts';
import { FormField } from '../../../ui/form-field.tsx';
import { TextInput } from '../../../ui/text-input.tsx';
import { OgImageField } from '../content/og-image-field.tsx';
import type { SeoDraft, SeoRefusal } from './seo-draft.ts';

/** After a refusal, the first field it names takes the focus (its message is read with it). */
export function useFocusFirstInvalid(refusal: SeoRefusal | undefined) {
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!refusal || Object.keys(refusal.fields).length === 0) return;
    // A chooser (the Open Graph image) is a button, which cannot be aria-invalid.
    ref.current
      ?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid="true"]')
      ?.focus();
  }, [refusal]);
  return ref;
}

const CONTROL =
  'w-full rounded-lg border border-[#dfe1e6] bg-white px-3 py-2 text-sm text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30 aria-[invalid=true]:border-red-500';

const charCount = (text: string) => [...text.replace(/\s+/g, ' ').trim()].length;

/** "45 of 30–60 characters", marked when outside the range search results show well. */
function Counter({ text, limits }: { text: string; limits: { min: number; max: number } }) {
  const { t } = useTranslation();
  const chars = charCount(text);
  const outside = chars > 0 && (chars < limits.min || chars > limits.max);
  return (
    <span className={outside ? 'font-medium text-amber-700' : undefined}>
      {t('staff_seo.fields.counter', { chars, min: limits.min, max: limits.max })}
    </span>
  );
}

/**
 * The five SEO fields of one translation or main page, with the character guidance of the
 * editor's SEO check beside the title and the description. Refusals show under their field.
 */
export function SeoFieldsForm(props: {
  draft: SeoDraft;
  errors: SeoRefusal['fields'];
  onChange: (changes: Partial<SeoDraft>) => void;
  /** What a search result shows when the SEO title is empty (the item's own title). */
  titleFallback?: string | undefined;
}) {
  const { t } = useTranslation();
  const { draft, errors, onChange } = props;
  return (
    <div className="flex flex-col gap-4">
      <TextInput
        label={t('staff_seo.fields.seo_title')}
        value={draft.seo_title}
        error={errors.seo_title}
        placeholder={props.titleFallback}
        hint={<Counter text={draft.seo_title} limits={TITLE_CHARS} />}
        onChange={(event) => onChange({ seo_title: event.target.value })}
      />
      <FormField
        label={t('staff_seo.fields.seo_description')}
        error={errors.seo_description}
        hint={<Counter text={draft.seo_description} limits={DESCRIPTION_CHARS} />}
      >
        {(control) => (
          <textarea
            {...control}
            rows={3}
            value={draft.seo_description}
            onChange={(event) => onChange({ seo_description: event.target.value })}
            className={CONTROL}
          />
        )}
      </FormField>
      <TextInput
        label={t('staff_seo.fields.focus_keyphrase')}
        value={draft.focus_keyphrase}
        error={errors.focus_keyphrase}
        hint={t('staff_seo.fields.focus_keyphrase_hint')}
        onChange={(event) => onChange({ focus_keyphrase: event.target.value })}
      />
      <OgImageField
        label={t('staff_media.og.label')}
        hint={t('staff_media.og.hint')}
        value={draft.og_image_id}
        error={errors.og_image_id}
        onChange={(og_image_id) => onChange({ og_image_id })}
      />
      <TextInput
        type="url"
        label={t('staff_seo.fields.canonical_url')}
        value={draft.canonical_url}
        error={errors.canonical_url}
        hint={t('staff_seo.fields.canonical_url_hint')}
        onChange={(event) => onChange({ canonical_url: event.target.value })}
      />
    </div>
  );
}
