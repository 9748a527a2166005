import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CONTENT_STATES } from '#shared/content/content-values.ts';
import { contentPath } from '#shared/content/public-paths.ts';
import { slugify } from '#shared/content/slugify.ts';
import type { ContentItem } from '#shared/contracts/admin/content.ts';
import { LANGS, type Lang } from '#shared/locales.ts';
import { isApiError, isCancelled, messageKeyOf } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { pathFor } from '../../../routes/match-route.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { FormError, FormField } from '../../../ui/form-field.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { TextInput } from '../../../ui/text-input.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { formatTime } from '../kit/format.ts';
import { useUnsavedGuard } from '../kit/use-unsaved-guard.ts';
import type { ContentArea } from './content-areas.ts';
import { type ContentDraft, draftOf, requestOf, sameDraft } from './content-draft.ts';
import { MarkdownField } from './markdown-field.tsx';
import { imageMarkdown, MediaPicker } from './media-picker.tsx';
import { OgImageField } from './og-image-field.tsx';
import { QuestionsField } from './questions-field.tsx';
import { RevisionsPanel } from './revisions-panel.tsx';
import { SeoPanel } from './seo-panel.tsx';
import { StateBadge } from './state-badge.tsx';

const CONTROL =
  'h-10 w-full rounded-lg border border-[#dfe1e6] bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30 aria-[invalid=true]:border-red-500';

export const contentItemKey = (area: ContentArea, id: number) => [
  'admin',
  'content',
  area.name,
  id,
];

type Errors = Partial<Record<string, string>>;

/** A draft is saved on its own this long after the last keystroke. */
export const AUTOSAVE_MS = 3_000;

type AutosaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: string }
  | { kind: 'failed'; message: string };

/** The message of a refused save: its first field's, else its own, else its code's. */
function refusalOf(error: unknown): string {
  if (!isApiError(error)) return messageKeyOf('internal');
  const [first] = Object.values(error.validation);
  return first?.[0] ?? error.info[0] ?? messageKeyOf(error.code);
}

function TextAreaField(props: {
  label: string;
  error: string | undefined;
  hint?: string;
  rows: number;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <FormField label={props.label} error={props.error} hint={props.hint}>
      {(control) => (
        <textarea
          {...control}
          rows={props.rows}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
          className={`${CONTROL} h-auto py-2`}
        />
      )}
    </FormField>
  );
}

/**
 * One editor for every kind of content (the note-editor pattern: create and edit are
 * ten-line shells). Each language is a tab with its state; a language not written yet starts
 * empty or from the English text. Only the open language is saved, with the version it
 * started from, so a save over someone else's newer one is refused rather than lost.
 */
export function ContentEditor({ area, item }: { area: ContentArea; item?: ContentItem }) {
  const { t } = useTranslation();
  const pageLang = useLang();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const translationOf = (lang: Lang) => item?.translations.find((tr) => tr.lang === lang);
  const [lang, setLang] = useState<Lang>(item?.translations[0]?.lang ?? 'en');
  const [drafts, setDrafts] = useState<Partial<Record<Lang, ContentDraft>>>({});
  const [categoryId, setCategoryId] = useState<number | null>(item?.category_id ?? null);
  const [urlTouched, setUrlTouched] = useState<Partial<Record<Lang, boolean>>>({});
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [picking, setPicking] = useState(false);
  const [autosave, setAutosave] = useState<AutosaveState>({ kind: 'idle' });
  const autosaving = useRef<Promise<void> | null>(null);

  const saved = translationOf(lang);
  const draft = drafts[lang] ?? draftOf(saved);
  const dirtyLangs = LANGS.filter((code) => {
    const edited = drafts[code];
    return edited !== undefined && !sameDraft(edited, draftOf(translationOf(code)));
  });
  const dirty = dirtyLangs.length > 0 || categoryId !== (item?.category_id ?? null);
  useUnsavedGuard(dirty && !saving);

  // A draft (of an item that exists) saves itself a moment after typing stops: only its
  // text, never the category, and never anything live (the server refuses that too).
  const mayAutosave =
    item !== undefined &&
    dirtyLangs.includes(lang) &&
    draft.state === 'draft' &&
    (!saved || saved.state === 'draft');
  useEffect(() => {
    if (!mayAutosave || saving || !item) return;
    const sent = draft;
    const code = lang;
    const run = async () => {
      setAutosave({ kind: 'saving' });
      try {
        const answer = await call(area.endpoints.update, {
          body: {
            ...requestOf(sent, code),
            id: item.id,
            version: item.translations.find((tr) => tr.lang === code)?.version,
            autosave: true,
          },
        });
        queryClient.setQueryData(contentItemKey(area, item.id), answer.item);
        // What was typed while it saved stays a draft of its own.
        setDrafts((current) => {
          const now = current[code];
          return now && sameDraft(now, sent) ? { ...current, [code]: undefined } : current;
        });
        setAutosave({ kind: 'saved', at: new Date().toISOString() });
      } catch (error) {
        if (!isCancelled(error)) setAutosave({ kind: 'failed', message: refusalOf(error) });
      }
    };
    const timer = setTimeout(() => {
      if (autosaving.current) return;
      autosaving.current = run().finally(() => {
        autosaving.current = null;
      });
    }, AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [mayAutosave, saving, item, draft, lang, area, queryClient]);

  const categories = useQuery({
    queryKey: ['admin', 'content', 'categories', area.name, pageLang],
    queryFn: async ({ signal }) =>
      area.categories
        ? (await call(area.categories, { query: { per_page: 100 } }, { signal })).items
        : [],
    enabled: area.categories !== undefined,
  });

  const edit = (changes: Partial<ContentDraft>) => {
    setDrafts((current) => {
      const next = { ...(current[lang] ?? draftOf(saved)), ...changes };
      // A new translation's address follows its title until staff type one.
      if (changes.name !== undefined && !saved && !urlTouched[lang])
        next.url = slugify(changes.name);
      return { ...current, [lang]: next };
    });
    for (const field of Object.keys(changes))
      setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const copyFrom = (source: Lang) => {
    const from = translationOf(source);
    if (!from) return;
    setDrafts((current) => ({
      ...current,
      [lang]: { ...draftOf(from), state: 'draft', publish_at: '', unpublish_at: '' },
    }));
    setUrlTouched((current) => ({ ...current, [lang]: true }));
    notify.success('staff_content.editor.copied', {
      values: { language: t(`staff_content.languages.${source}`) },
    });
  };

  const save = async () => {
    setSaving(true);
    setErrors({});
    setFormError(undefined);
    try {
      // An autosave under way finishes first: this save starts from the version it made.
      await autosaving.current;
      const latest = item && queryClient.getQueryData<ContentItem>(contentItemKey(area, item.id));
      const version = (latest ?? item)?.translations.find((tr) => tr.lang === lang)?.version;
      const fields = { ...requestOf(draft, lang), category_id: categoryId };
      const answer = item
        ? await call(area.endpoints.update, { body: { ...fields, id: item.id, version } })
        : await call(area.endpoints.create, { body: fields });
      setDrafts((current) => ({ ...current, [lang]: undefined }));
      queryClient.setQueryData(contentItemKey(area, answer.item.id), answer.item);
      void queryClient.invalidateQueries({ queryKey: ['admin', area.list.url] });
      notify.success(item ? 'staff_content.editor.saved' : 'staff_content.editor.created');
      if (!item) {
        await navigate(pathFor(area.edit, pageLang, { id: String(answer.item.id) }), {
          replace: true,
        });
      }
    } catch (error) {
      if (isCancelled(error)) return;
      if (!isApiError(error)) {
        console.error(error);
        setFormError(messageKeyOf('internal'));
        return;
      }
      const fieldErrors: Errors = {};
      for (const [field, messages] of Object.entries(error.validation)) {
        // A question's field (`questions.2.answer`) shows under the questions.
        fieldErrors[field.startsWith('questions.') ? field : (field.split('.')[0] ?? field)] =
          messages[0];
      }
      setErrors(fieldErrors);
      const shown = Object.keys(fieldErrors).length > 0;
      setFormError(error.info[0] ?? (shown ? undefined : messageKeyOf(error.code)));
    } finally {
      setSaving(false);
    }
  };

  const deleteLang = async () => {
    if (!item || !saved) return;
    const language = t(`staff_content.languages.${lang}`);
    const yes = await confirm({
      title: t('staff_content.editor.delete_lang_title', { language }),
      text: t('staff_content.editor.delete_lang_text'),
      icon: 'danger',
      yes: { label: t('staff_content.editor.delete_lang', { language }), variant: 'danger' },
      onConfirm: () => call(area.endpoints.deleteLang, { body: { id: item.id, lang } }),
    });
    if (!yes) return;
    notify.success('staff_content.editor.deleted');
    setDrafts((current) => ({ ...current, [lang]: undefined }));
    await queryClient.invalidateQueries({ queryKey: contentItemKey(area, item.id) });
  };

  const deleteItem = async () => {
    if (!item) return;
    const yes = await confirm({
      title: t('staff_content.editor.delete_title', { name: saved?.name ?? '' }),
      text: t('staff_content.editor.delete_text'),
      icon: 'danger',
      yes: { label: t('staff_content.editor.delete_item'), variant: 'danger' },
      onConfirm: () => call(area.endpoints.delete, { body: { id: item.id } }),
    });
    if (!yes) return;
    setDrafts({});
    setCategoryId(item.category_id);
    notify.success('staff_content.editor.deleted');
    void queryClient.invalidateQueries({ queryKey: ['admin', area.list.url] });
    await navigate(pathFor(area.overview, pageLang));
  };

  const canPublish = item?.can_publish ?? true;
  const english = translationOf('en');
  const language = t(`staff_content.languages.${lang}`);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const address = `${window.location.host}${contentPath(area.kind, lang, draft.url || '…')}`;

  return (
    <form
      noValidate
      className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div className="flex min-w-0 flex-col gap-6">
        <div
          role="tablist"
          aria-label={t('staff_content.editor.languages')}
          className="flex flex-wrap gap-2"
        >
          {LANGS.map((code) => (
            <button
              key={code}
              type="button"
              role="tab"
              aria-selected={code === lang}
              onClick={() => setLang(code)}
              className="flex items-center gap-2 rounded-lg border border-slate-200 px-3 py-1.5 text-sm aria-selected:border-brand-500 aria-selected:bg-brand-50"
            >
              {t(`staff_content.languages.${code}`)}
              <StateBadge lang={code} state={translationOf(code)?.state ?? 'missing'} />
              {dirtyLangs.includes(code) && <span aria-hidden="true">•</span>}
            </button>
          ))}
        </div>
        {!saved && item && (
          <div className="flex flex-wrap items-center gap-3 rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
            <p>{t('staff_content.editor.new_language', { language })}</p>
            {english && lang !== 'en' && (
              <Button type="button" onClick={() => copyFrom('en')}>
                {t('staff_content.editor.copy_from', { language: t('staff_content.languages.en') })}
              </Button>
            )}
          </div>
        )}
        <FormError message={formError} />
        <Panel title={t('staff_content.editor.text_section')}>
          <div className="flex flex-col gap-4">
            <TextInput
              label={t('staff_content.fields.name')}
              value={draft.name}
              required
              error={errors.name}
              onChange={(event) => edit({ name: event.target.value })}
            />
            <TextInput
              label={t('staff_content.fields.url')}
              value={draft.url}
              required
              error={errors.url}
              hint={t('staff_content.fields.url_hint', {
                path: contentPath(area.kind, lang, draft.url || '…'),
              })}
              onChange={(event) => {
                setUrlTouched((current) => ({ ...current, [lang]: true }));
                edit({ url: event.target.value });
              }}
            />
            {saved && saved.redirected_from.length > 0 && (
              <div className="text-sm text-slate-600">
                <p>{t('staff_content.editor.redirected_from')}</p>
                <ul className="mt-1 list-inside list-disc">
                  {saved.redirected_from.map((slug) => (
                    <li key={slug}>
                      <code>{contentPath(area.kind, lang, slug)}</code>
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {area.categories && (
              <FormField label={t('staff_content.fields.category')} error={errors.category_id}>
                {(control) => (
                  <select
                    {...control}
                    className={CONTROL}
                    value={categoryId ?? ''}
                    onChange={(event) =>
                      setCategoryId(event.target.value === '' ? null : Number(event.target.value))
                    }
                  >
                    <option value="">{t('staff_content.fields.no_category')}</option>
                    {categories.data?.map((category) => {
                      const name =
                        category.translations.find((tr) => tr.lang === pageLang)?.name ??
                        category.translations[0]?.name ??
                        '';
                      return (
                        <option key={category.category_id} value={category.category_id}>
                          {category.parent_category_id ? `— ${name}` : name}
                        </option>
                      );
                    })}
                  </select>
                )}
              </FormField>
            )}
            <TextAreaField
              label={t('staff_content.fields.summary')}
              error={errors.summary}
              hint={t('staff_content.fields.summary_hint')}
              rows={2}
              value={draft.summary}
              onChange={(summary) => edit({ summary })}
            />
            <MarkdownField
              label={t('staff_content.fields.contents')}
              hint={t('staff_content.fields.contents_hint')}
              value={draft.contents}
              lang={lang}
              error={errors.contents}
              onChange={(contents) => edit({ contents })}
            />
            <div>
              <Button type="button" variant="ghost" onClick={() => setPicking(true)}>
                {t('staff_media.open_picker')}
              </Button>
              <MediaPicker
                open={picking}
                onClose={() => setPicking(false)}
                onPick={(image) => {
                  const before = draft.contents.trimEnd();
                  edit({ contents: `${before}${before ? '\n\n' : ''}${imageMarkdown(image)}\n` });
                }}
              />
            </div>
            {area.kind === 'faq' && (
              <QuestionsField
                lang={lang}
                questions={draft.questions}
                errors={errors}
                onChange={(questions) => edit({ questions })}
              />
            )}
            {area.kind === 'post' && (
              <TextInput
                label={t('staff_content.fields.tags')}
                value={draft.tags}
                error={errors.tags}
                hint={t('staff_content.fields.tags_hint')}
                onChange={(event) => edit({ tags: event.target.value })}
              />
            )}
          </div>
        </Panel>
        <Panel title={t('staff_content.editor.seo_section')}>
          <div className="flex flex-col gap-4">
            <TextInput
              label={t('staff_content.fields.seo_title')}
              value={draft.seo_title}
              error={errors.seo_title}
              hint={t('staff_content.fields.seo_title_hint')}
              onChange={(event) => edit({ seo_title: event.target.value })}
            />
            <TextAreaField
              label={t('staff_content.fields.seo_description')}
              error={errors.seo_description}
              rows={3}
              value={draft.seo_description}
              onChange={(seo_description) => edit({ seo_description })}
            />
            <TextInput
              label={t('staff_content.fields.focus_keyphrase')}
              value={draft.focus_keyphrase}
              error={errors.focus_keyphrase}
              onChange={(event) => edit({ focus_keyphrase: event.target.value })}
            />
            <OgImageField
              label={t('staff_media.og.label')}
              hint={t('staff_media.og.hint')}
              value={draft.og_image_id}
              error={errors.og_image_id}
              onChange={(og_image_id) => edit({ og_image_id })}
            />
            <TextInput
              label={t('staff_content.fields.canonical_url')}
              value={draft.canonical_url}
              error={errors.canonical_url}
              hint={t('staff_content.fields.canonical_url_hint')}
              onChange={(event) => edit({ canonical_url: event.target.value })}
            />
          </div>
        </Panel>
      </div>
      <aside className="flex flex-col gap-6">
        <Panel title={t('staff_content.editor.publishing_section')}>
          <div className="flex flex-col gap-4">
            {!canPublish && (
              <p className="text-sm text-slate-600">{t('staff_content.editor.cannot_publish')}</p>
            )}
            <FormField label={t('staff_content.fields.state')} error={errors.state}>
              {(control) => (
                <select
                  {...control}
                  className={CONTROL}
                  value={draft.state}
                  onChange={(event) => edit({ state: event.target.value as ContentDraft['state'] })}
                >
                  {CONTENT_STATES.map((state) => (
                    <option key={state} value={state} disabled={!canPublish && state !== 'draft'}>
                      {t(`staff_content.states.${state}`)}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
            {draft.state === 'scheduled' && (
              <TextInput
                type="datetime-local"
                label={t('staff_content.fields.publish_at')}
                value={draft.publish_at}
                error={errors.publish_at}
                onChange={(event) => edit({ publish_at: event.target.value })}
              />
            )}
            {(draft.state === 'scheduled' || draft.state === 'published') && (
              <TextInput
                type="datetime-local"
                label={t('staff_content.fields.unpublish_at')}
                value={draft.unpublish_at}
                error={errors.unpublish_at}
                onChange={(event) => edit({ unpublish_at: event.target.value })}
              />
            )}
            <p className="text-xs text-slate-500">
              {t('staff_content.editor.time_zone', { zone })}
            </p>
            {saved && (
              <p className="text-xs text-slate-500">
                {t('staff_content.editor.words', {
                  count: saved.words,
                  minutes: saved.reading_minutes,
                })}
              </p>
            )}
            <p role="status" aria-live="polite" className="text-xs text-slate-500">
              {autosave.kind === 'saving' && t('staff_content.autosave.saving')}
              {autosave.kind === 'saved' &&
                t('staff_content.autosave.saved', { time: formatTime(autosave.at, pageLang) })}
            </p>
            {autosave.kind === 'failed' && (
              <p className="text-xs text-red-700">
                {t('staff_content.autosave.failed', { reason: t(autosave.message) })}
              </p>
            )}
            <Button type="submit" variant="primary" loading={saving}>
              {t('staff_content.editor.save')}
            </Button>
            {item && saved && item.translations.length > 1 && (
              <Button type="button" variant="ghost" onClick={() => void deleteLang()}>
                {t('staff_content.editor.delete_lang', { language })}
              </Button>
            )}
            {item && area.kind !== 'static_page' && (
              <Button type="button" variant="ghost" onClick={() => void deleteItem()}>
                {t('staff_content.editor.delete_item')}
              </Button>
            )}
          </div>
        </Panel>
        {item && saved && (
          <RevisionsPanel
            item={item}
            lang={lang}
            current={saved}
            onRestored={(restored) => {
              queryClient.setQueryData(contentItemKey(area, restored.id), restored);
              setDrafts((current) => ({ ...current, [lang]: undefined }));
            }}
          />
        )}
        <SeoPanel
          input={{
            lang,
            title: draft.seo_title || draft.name,
            description: draft.seo_description,
            slug: draft.url,
            keyphrase: draft.focus_keyphrase,
            markdown: draft.contents,
            address,
          }}
        />
      </aside>
    </form>
  );
}
