import { useTranslation } from 'react-i18next';
import { analyzeSeo } from '#shared/content/seo-analysis.ts';
import type { Lang } from '#shared/locales.ts';

/** How a title or description measures against what search results show well. */
export type SeoLength = 'missing' | 'short' | 'long' | 'good';

const TONES: Record<SeoLength, string> = {
  missing: 'bg-red-50 text-red-700',
  short: 'bg-amber-100 text-amber-800',
  long: 'bg-amber-100 text-amber-800',
  good: 'bg-emerald-100 text-emerald-800',
};

/** The SEO check's own verdict on the two lengths (shared/content/seo-analysis.ts). */
export function seoLengths(
  lang: Lang,
  title: string,
  description: string,
): { title: SeoLength; description: SeoLength } {
  const { checks } = analyzeSeo({
    lang,
    title,
    description,
    slug: '',
    keyphrase: '',
    markdown: '',
  });
  const reason = (id: string) =>
    (checks.find((check) => check.id === id)?.reason ?? 'missing') as SeoLength;
  return { title: reason('title_length'), description: reason('description_length') };
}

/** "Title: too long" and "Description: missing", in words and colour. */
export function SeoState({
  lang,
  title,
  description,
}: {
  lang: Lang;
  title: string;
  description: string;
}) {
  const { t } = useTranslation();
  const lengths = seoLengths(lang, title, description);
  return (
    <ul className="flex flex-col gap-1 text-xs">
      {(['title', 'description'] as const).map((part) => (
        <li key={part}>
          <span className={`inline-flex rounded px-1.5 py-0.5 font-medium ${TONES[lengths[part]]}`}>
            {t(`staff_seo.state.${part}`, { state: t(`staff_seo.state.${lengths[part]}`) })}
          </span>
        </li>
      ))}
    </ul>
  );
}
