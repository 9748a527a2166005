import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '#shared/locales.ts';
import { FieldError } from '../../../ui/form-field.tsx';

const TAB =
  'rounded-t-lg px-3 py-1.5 text-sm font-medium aria-selected:bg-white aria-selected:text-slate-900 text-slate-600';

/**
 * A Markdown body: written in a plain text area (every screen reader and keyboard knows
 * it), previewed with the renderer the server stores pages with, so the preview is the page.
 * The renderer loads with the first preview.
 */
export function MarkdownField(props: {
  label: string;
  hint: string;
  value: string;
  lang: Lang;
  error?: string | undefined;
  rows?: number;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [mode, setMode] = useState<'write' | 'preview'>('write');
  const [html, setHtml] = useState<string | null>(null);
  const { value, lang } = props;
  useEffect(() => {
    if (mode !== 'preview') return;
    let live = true;
    void import('#shared/content/markdown.ts').then(({ renderMarkdown }) => {
      if (live) setHtml(renderMarkdown(value, lang, { siteHost: window.location.hostname }).html);
    });
    return () => {
      live = false;
    };
  }, [mode, value, lang]);
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-end justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {props.label}
        </label>
        <div
          role="tablist"
          aria-label={t('staff_content.editor.mode', { field: props.label })}
          className="flex gap-1 rounded-t-lg bg-slate-100 p-1"
        >
          {(['write', 'preview'] as const).map((tab) => (
            <button
              key={tab}
              type="button"
              role="tab"
              aria-selected={mode === tab}
              className={TAB}
              onClick={() => setMode(tab)}
            >
              {t(`staff_content.editor.${tab}`)}
            </button>
          ))}
        </div>
      </div>
      {mode === 'write' ? (
        <textarea
          id={id}
          value={value}
          rows={props.rows ?? 18}
          onChange={(event) => props.onChange(event.target.value)}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={`${id}-hint`}
          className={`w-full rounded-lg border bg-white p-3 font-mono text-sm text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30 ${props.error ? 'border-red-500' : 'border-[#dfe1e6]'}`}
        />
      ) : (
        <div
          role="tabpanel"
          aria-label={t('staff_content.editor.preview')}
          className="content-prose min-h-40 rounded-lg border border-[#dfe1e6] bg-white p-4"
          // Sanitized by the renderer (rehype-sanitize), as the stored page is.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized HTML of our own renderer
          dangerouslySetInnerHTML={{
            __html: html || `<p>${t('staff_content.editor.preview_empty')}</p>`,
          }}
        />
      )}
      {props.error ? (
        <FieldError id={`${id}-hint`} message={props.error} />
      ) : (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {props.hint}
        </p>
      )}
    </div>
  );
}
