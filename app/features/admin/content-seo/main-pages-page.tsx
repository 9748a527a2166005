import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAIN_PAGES, type MainPage } from '#shared/content/content-values.ts';
import { type MainPageSeoItem, seoEndpoints } from '#shared/contracts/admin/content.ts';
import { LANGS, type Lang } from '#shared/locales.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { FormError } from '../../../ui/form-field.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { SeoPanel } from '../content/seo-panel.tsx';
import { AdminPage } from '../kit/admin-page.tsx';
import { useUnsavedGuard } from '../kit/use-unsaved-guard.ts';
import {
  refusalOf,
  type SeoDraft,
  type SeoRefusal,
  sameSeoDraft,
  seoDraftOf,
  seoRequestOf,
} from './seo-draft.ts';
import { SeoFieldsForm, useFocusFirstInvalid } from './seo-fields.tsx';
import { type SeoLength, seoLengths } from './seo-state.tsx';
import { SeoTabs } from './seo-tabs.tsx';

/** The main pages' settings and FAQs, as this screen and the FAQ placement read them. */
export const MAIN_PAGES_KEY = ['admin', seoEndpoints.mainPages.url];

export function useMainPages() {
  return useQuery({
    queryKey: MAIN_PAGES_KEY,
    queryFn: ({ signal }) =>
      call(seoEndpoints.mainPages, {}, { signal }).then((answer) => answer.items),
  });
}

const keyOf = (page: MainPage, lang: Lang) => `${page}:${lang}`;
const WORST: readonly SeoLength[] = ['missing', 'long', 'short', 'good'];
const TONES: Record<SeoLength, string> = {
  missing: 'border-red-200 bg-red-50 text-red-700',
  long: 'border-amber-200 bg-amber-50 text-amber-800',
  short: 'border-amber-200 bg-amber-50 text-amber-800',
  good: 'border-emerald-200 bg-emerald-50 text-emerald-800',
};

/** §2 /admin/seo/main-pages: each main page's search settings, per language. */
export function MainPagesPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t('staff_seo.main_pages.title')}>
      <SeoTabs />
      <MainPages />
    </AdminPage>
  );
}

function MainPages() {
  const { t } = useTranslation();
  const pages = useMainPages();
  // Once read, a failed refetch leaves the editor (and what was typed) where it is.
  if (pages.data) return <MainPagesEditor items={pages.data} />;
  if (pages.isPending) return <LoadingBlock />;
  return (
    <EmptyState
      title={t('staff.kit.load_failed')}
      text={t(failureMessage(pages.error))}
      action={<Button onClick={() => pages.refetch()}>{t('staff.kit.retry')}</Button>}
    />
  );
}

function MainPagesEditor({ items }: { items: MainPageSeoItem[] }) {
  const { t } = useTranslation();
  const pageLang = useLang();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<{ page: MainPage; lang: Lang }>({
    page: 'home',
    lang: pageLang,
  });
  const [drafts, setDrafts] = useState<Partial<Record<string, SeoDraft>>>({});
  const [refusals, setRefusals] = useState<Partial<Record<string, SeoRefusal>>>({});
  const [saving, setSaving] = useState(false);

  const storedOf = (page: MainPage, lang: Lang) =>
    items.find((item) => item.page === page)?.translations.find((tr) => tr.lang === lang);
  const draftFor = (page: MainPage, lang: Lang) =>
    drafts[keyOf(page, lang)] ?? seoDraftOf(storedOf(page, lang));
  const isDirty = (page: MainPage, lang: Lang) => {
    const edited = drafts[keyOf(page, lang)];
    return edited !== undefined && !sameSeoDraft(edited, seoDraftOf(storedOf(page, lang)));
  };
  const dirty = MAIN_PAGES.some((page) => LANGS.some((lang) => isDirty(page, lang)));
  useUnsavedGuard(dirty && !saving);

  const { page, lang } = selected;
  const key = keyOf(page, lang);
  const draft = draftFor(page, lang);
  const refusal = refusals[key];
  const formRef = useFocusFirstInvalid(refusal);
  const pageName = t(`staff_seo.pages.${page}`);
  const language = t(`staff_content.languages.${lang}`);

  const edit = (changes: Partial<SeoDraft>) => {
    setDrafts((current) => ({ ...current, [key]: { ...draftFor(page, lang), ...changes } }));
    const fields = { ...refusal?.fields };
    for (const field of Object.keys(changes)) delete fields[field as keyof typeof fields];
    if (refusal) setRefusals((current) => ({ ...current, [key]: { ...refusal, fields } }));
  };

  const save = async () => {
    const request = seoRequestOf(draft);
    if (!request.ok) {
      setRefusals((current) => ({ ...current, [key]: request.refusal }));
      return;
    }
    setSaving(true);
    setRefusals((current) => ({ ...current, [key]: undefined }));
    try {
      await call(seoEndpoints.updateMainPage, { body: { page, lang, ...request.fields } });
      queryClient.setQueryData<MainPageSeoItem[]>(MAIN_PAGES_KEY, (current) =>
        current?.map((item) =>
          item.page !== page
            ? item
            : {
                ...item,
                translations: item.translations.map((tr) =>
                  tr.lang === lang
                    ? { ...tr, ...request.fields, updated_at: new Date().toISOString() }
                    : tr,
                ),
              },
        ),
      );
      setDrafts((current) => ({ ...current, [key]: undefined }));
      notify.success('staff_seo.saved');
    } catch (error) {
      const refused = refusalOf(error);
      if (refused) setRefusals((current) => ({ ...current, [key]: refused }));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <p className="text-sm text-slate-600">{t('staff_seo.main_pages.intro')}</p>
      <div className="relative overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('staff_seo.main_pages.caption')}</caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                {t('staff_seo.columns.page')}
              </th>
              {LANGS.map((code) => (
                <th key={code} scope="col" className="px-2 py-3 font-semibold">
                  {t(`staff_content.languages.${code}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {MAIN_PAGES.map((row) => {
              const name = t(`staff_seo.pages.${row}`);
              return (
                <tr key={row}>
                  <th scope="row" className="px-4 py-2 font-medium text-slate-900">
                    {name}
                  </th>
                  {LANGS.map((code) => {
                    const shown = draftFor(row, code);
                    const lengths = seoLengths(code, shown.seo_title, shown.seo_description);
                    const worst =
                      WORST.find(
                        (state) => state === lengths.title || state === lengths.description,
                      ) ?? 'good';
                    const current = row === page && code === lang;
                    return (
                      <td key={code} className="px-2 py-2">
                        <button
                          type="button"
                          aria-pressed={current}
                          onClick={() => setSelected({ page: row, lang: code })}
                          className={`inline-flex min-h-8 items-center gap-1 rounded-lg border px-2 text-xs font-medium focus-visible:outline-2 focus-visible:outline-brand-500 aria-pressed:ring-2 aria-pressed:ring-brand-500 ${TONES[worst]}`}
                        >
                          <span className="sr-only">
                            {t('staff_seo.main_pages.cell', {
                              page: name,
                              language: t(`staff_content.languages.${code}`),
                              title: t(`staff_seo.state.${lengths.title}`),
                              description: t(`staff_seo.state.${lengths.description}`),
                            })}
                            {isDirty(row, code) && ` (${t('staff_seo.unsaved')})`}
                          </span>
                          <span aria-hidden="true">{t(`staff_seo.state.${worst}`)}</span>
                          {isDirty(row, code) && <span aria-hidden="true">•</span>}
                        </button>
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <form
        ref={formRef}
        noValidate
        className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <Panel
          title={t('staff_seo.main_pages.editing', { page: pageName, language })}
          id="main-page-seo"
        >
          <div className="flex flex-col gap-4">
            <FormError message={refusal?.form} />
            <SeoFieldsForm draft={draft} errors={refusal?.fields ?? {}} onChange={edit} />
            <div className="flex flex-wrap gap-3">
              <Button type="submit" variant="primary" loading={saving}>
                {t('staff_seo.save')}
              </Button>
              {isDirty(page, lang) && (
                <Button
                  type="button"
                  variant="ghost"
                  onClick={() => {
                    setDrafts((current) => ({ ...current, [key]: undefined }));
                    setRefusals((current) => ({ ...current, [key]: undefined }));
                  }}
                >
                  {t('staff_seo.discard')}
                </Button>
              )}
            </div>
          </div>
        </Panel>
        <aside>
          <SeoPanel
            input={{
              lang,
              title: draft.seo_title,
              description: draft.seo_description,
              slug: '',
              keyphrase: draft.focus_keyphrase,
              markdown: '',
              address:
                page === 'home'
                  ? `${window.location.host}/${lang}`
                  : `${window.location.host} › ${pageName}`,
            }}
          />
        </aside>
      </form>
    </div>
  );
}
