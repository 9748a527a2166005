import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAIN_PAGES, type MainPage } from '#shared/content/content-values.ts';
import {
  faqEndpoints,
  type MainPageSeoItem,
  seoEndpoints,
} from '#shared/contracts/admin/content.ts';
import { MAX_PER_PAGE } from '#shared/contracts/list.ts';
import { failureMessage, isApiError } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { RouteLink } from '../../../layout/route-link.tsx';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { FormError, FormField } from '../../../ui/form-field.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import { useUnsavedGuard } from '../kit/use-unsaved-guard.ts';
import { MAIN_PAGES_KEY, useMainPages } from './main-pages-page.tsx';
import { refusalOf, type SeoRefusal } from './seo-draft.ts';

const CONTROL =
  'h-10 w-full rounded-lg border border-[#dfe1e6] bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30 aria-[invalid=true]:border-red-500';

/** §2 /admin/faq/pages/create: which FAQ each main page shows, or none. */
export function FaqPlacementPage() {
  const { t } = useTranslation();
  return (
    <AdminPage
      title={t('staff_seo.faq_pages.title')}
      actions={
        <RouteLink
          name="admin.faq.list.overview"
          className="text-sm text-brand-700 hover:underline"
        >
          {t('staff_seo.faq_pages.all_faqs')}
        </RouteLink>
      }
    >
      <FaqPlacement />
    </AdminPage>
  );
}

function FaqPlacement() {
  const { t } = useTranslation();
  const lang = useLang();
  const pages = useMainPages();
  // Every FAQ to choose from; a site has a handful, far under one page of the list.
  const faqs = useQuery({
    queryKey: ['admin', faqEndpoints.list.url, { per_page: MAX_PER_PAGE, sort: 'name' }],
    queryFn: ({ signal }) =>
      call(
        faqEndpoints.list,
        { query: { per_page: MAX_PER_PAGE, sort: 'name', direction: 'asc' } },
        { signal },
      ).then((answer) => answer.items),
  });
  if (pages.data && faqs.data) {
    const options = faqs.data.map((faq) => ({
      id: faq.id,
      name:
        faq.translations.find((tr) => tr.lang === lang)?.name ?? faq.translations[0]?.name ?? '',
    }));
    return <PlacementForm items={pages.data} faqs={options} />;
  }
  const failed = pages.isError ? pages : faqs.isError ? faqs : undefined;
  if (!failed) return <LoadingBlock />;
  return (
    <EmptyState
      title={t('staff.kit.load_failed')}
      text={t(failureMessage(failed.error))}
      action={
        <Button
          onClick={() => {
            void pages.refetch();
            void faqs.refetch();
          }}
        >
          {t('staff.kit.retry')}
        </Button>
      }
    />
  );
}

function PlacementForm({
  items,
  faqs,
}: {
  items: MainPageSeoItem[];
  faqs: { id: number; name: string }[];
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const storedOf = (page: MainPage) => items.find((item) => item.page === page)?.faq_id ?? null;
  const [chosen, setChosen] = useState<Partial<Record<MainPage, number | null>>>({});
  const [refusals, setRefusals] = useState<Partial<Record<MainPage, SeoRefusal>>>({});
  const [formError, setFormError] = useState<string>();
  const [saving, setSaving] = useState(false);

  const choiceOf = (page: MainPage) => (page in chosen ? (chosen[page] ?? null) : storedOf(page));
  const changed = MAIN_PAGES.filter((page) => page in chosen && chosen[page] !== storedOf(page));
  useUnsavedGuard(changed.length > 0 && !saving);

  // Each page is its own call: those that went through are kept, a refused one stays chosen
  // with its message under it.
  const save = async () => {
    setSaving(true);
    setFormError(undefined);
    setRefusals({});
    let savedAny = false;
    for (const page of changed) {
      const faqId = choiceOf(page);
      try {
        await call(seoEndpoints.mainPageFaq, { body: { page, faq_id: faqId } });
        savedAny = true;
        queryClient.setQueryData<MainPageSeoItem[]>(MAIN_PAGES_KEY, (current) =>
          current?.map((item) => (item.page === page ? { ...item, faq_id: faqId } : item)),
        );
        setChosen((current) => {
          const next = { ...current };
          delete next[page];
          return next;
        });
      } catch (error) {
        const refused = refusalOf(error);
        if (!refused) continue;
        if (isApiError(error) && error.status === 403) {
          // Not this page's fault: this person may not change what the live site shows.
          setFormError(refused.form);
          break;
        }
        const under = Object.values(refused.fields)[0] ?? refused.form;
        setRefusals((current) => ({ ...current, [page]: { fields: {}, form: under } }));
      }
    }
    setSaving(false);
    if (savedAny) notify.success('staff_seo.faq_pages.saved');
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Panel title={t('staff_seo.faq_pages.panel')} description={t('staff_seo.faq_pages.intro')}>
        <div className="flex flex-col gap-4">
          <FormError message={formError} />
          {faqs.length === 0 && (
            <p className="text-sm text-slate-600">{t('staff_seo.faq_pages.no_faqs')}</p>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            {MAIN_PAGES.map((page) => {
              const value = choiceOf(page);
              return (
                <FormField
                  key={page}
                  label={t(`staff_seo.pages.${page}`)}
                  error={refusals[page]?.form}
                >
                  {(control) => (
                    <select
                      {...control}
                      className={CONTROL}
                      value={value ?? ''}
                      onChange={(event) => {
                        const next = event.target.value === '' ? null : Number(event.target.value);
                        setChosen((current) => ({ ...current, [page]: next }));
                        setRefusals((current) => ({ ...current, [page]: undefined }));
                      }}
                    >
                      <option value="">{t('staff_seo.faq_pages.none')}</option>
                      {/* A placed FAQ past the first page of the list still shows by its number. */}
                      {value !== null && !faqs.some((faq) => faq.id === value) && (
                        <option value={value}>
                          {t('staff_seo.faq_pages.faq_number', { id: value })}
                        </option>
                      )}
                      {faqs.map((faq) => (
                        <option key={faq.id} value={faq.id}>
                          {faq.name}
                        </option>
                      ))}
                    </select>
                  )}
                </FormField>
              );
            })}
          </div>
          <div>
            <Button
              type="submit"
              variant="primary"
              loading={saving}
              disabled={changed.length === 0}
            >
              {t('staff_seo.save')}
            </Button>
          </div>
        </div>
      </Panel>
    </form>
  );
}
