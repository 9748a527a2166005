import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  blogCategoryEndpoints,
  type ContentCategory,
  type ContentListItem,
  helpCategoryEndpoints,
} from '#shared/contracts/admin/content.ts';
import { isLang, LANGS, type Lang } from '#shared/locales.ts';
import { RouteLink } from '../../../layout/route-link.tsx';
import { Button } from '../../../ui/button.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { CONTENT_AREAS } from '../content/content-areas.ts';
import { StateBadge } from '../content/state-badge.tsx';
import { AdminPage } from '../kit/admin-page.tsx';
import type { Column } from '../kit/data-table.tsx';
import { ListPage } from '../kit/list-page.tsx';
import { SeoEditDialog, type SeoTarget } from './seo-edit-dialog.tsx';
import { SeoState } from './seo-state.tsx';
import { SeoTabs } from './seo-tabs.tsx';

const FIELD =
  'h-10 rounded-lg border border-[#dfe1e6] bg-white px-3 text-sm focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30';
const TREES = { blog: blogCategoryEndpoints.list, help: helpCategoryEndpoints.list } as const;
type Tree = keyof typeof TREES;

/** A choice kept in the URL beside the list's own (page, search): a link shows the same. */
function useUrlChoice<V extends string>(
  name: string,
  fallback: V,
  valid: (value: string) => boolean,
) {
  const [params, setParams] = useSearchParams();
  const value = params.get(name);
  const current = value !== null && valid(value) ? (value as V) : fallback;
  const set = (next: V) =>
    setParams(
      (old) => {
        const updated = new URLSearchParams(old);
        updated.set(name, next);
        // Another language or tree is another list: from its first page.
        updated.delete('page');
        return updated;
      },
      { replace: true },
    );
  return [current, set] as const;
}

function ChoiceField<V extends string>(props: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {props.label}
      </label>
      <select
        id={id}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value as V)}
        className={FIELD}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function LanguageChoice({ lang, onChange }: { lang: Lang; onChange: (lang: Lang) => void }) {
  const { t } = useTranslation();
  return (
    <ChoiceField
      label={t('staff_seo.lists.language')}
      value={lang}
      options={LANGS.map((code) => ({ value: code, label: t(`staff_content.languages.${code}`) }))}
      onChange={onChange}
    />
  );
}

/** An item's SEO state in one language, as its list row carries it. */
function ItemSeoCell({ item, lang }: { item: ContentListItem; lang: Lang }) {
  const translation = item.translations.find((tr) => tr.lang === lang);
  if (!translation) return <span className="text-xs text-slate-500">—</span>;
  return (
    <SeoState lang={lang} title={translation.seo_title} description={translation.seo_description} />
  );
}

const nameIn = (translations: readonly { lang: Lang; name: string }[], lang: Lang) =>
  translations.find((tr) => tr.lang === lang)?.name ?? translations[0]?.name ?? '';

/** §2 /admin/seo/posts and /admin/seo/articles: each item's search settings in one language. */
function ItemsSeoPage({ areaName }: { areaName: 'posts' | 'articles' }) {
  const { t } = useTranslation();
  const pageLang = useLang();
  const area = CONTENT_AREAS[areaName];
  const [lang, setLang] = useUrlChoice<Lang>('lang', pageLang, isLang);
  const [target, setTarget] = useState<SeoTarget>();
  const texts = `staff_seo.lists.${areaName}`;
  const columns: Column<ContentListItem>[] = [
    {
      key: 'name',
      header: 'staff_seo.columns.name',
      sort: 'name',
      cell: (item) => (
        <RouteLink
          name={area.edit}
          params={{ id: String(item.id) }}
          className="font-medium text-brand-700 hover:underline"
        >
          {nameIn(item.translations, lang)}
        </RouteLink>
      ),
    },
    {
      key: 'state',
      header: 'staff_seo.columns.state',
      cell: (item) => (
        <StateBadge
          lang={lang}
          state={item.translations.find((tr) => tr.lang === lang)?.state ?? 'missing'}
        />
      ),
    },
    {
      key: 'seo',
      header: 'staff_seo.columns.seo',
      cell: (item) => <ItemSeoCell item={item} lang={lang} />,
    },
  ];
  return (
    <AdminPage title={t(`${texts}.title`)}>
      <SeoTabs />
      <LanguageChoice lang={lang} onChange={setLang} />
      <ListPage
        endpoint={area.list}
        caption={t(`${texts}.caption`, { language: t(`staff_content.languages.${lang}`) })}
        columns={columns}
        rowKey={(item) => item.id}
        rowActions={(item) => {
          const name = nameIn(item.translations, lang);
          return (
            <Button
              variant="secondary"
              aria-label={t('staff_seo.lists.edit_named', { name })}
              disabled={!item.translations.some((tr) => tr.lang === lang)}
              onClick={() => setTarget({ type: 'item', area, id: item.id, lang, name })}
            >
              {t('staff_seo.lists.edit')}
            </Button>
          );
        }}
        searchLabel={t('staff_seo.lists.search')}
        empty={{ title: t(`${texts}.empty_title`), text: t('staff_seo.lists.empty_text') }}
        fixed={{ lang }}
      />
      {target && <SeoEditDialog target={target} onClose={() => setTarget(undefined)} />}
    </AdminPage>
  );
}

/** §2 /admin/seo/categories: the blog's and the help center's categories, one tree at a time. */
function CategoriesSeoPage() {
  const { t } = useTranslation();
  const pageLang = useLang();
  const [lang, setLang] = useUrlChoice<Lang>('lang', pageLang, isLang);
  const [tree, setTree] = useUrlChoice<Tree>('tree', 'blog', (value) => value in TREES);
  const [target, setTarget] = useState<SeoTarget>();
  const endpoint = TREES[tree];
  const columns: Column<ContentCategory>[] = [
    {
      key: 'name',
      header: 'staff_seo.columns.name',
      cell: (category) => (
        <span className="font-medium text-slate-900">
          {category.parent_category_id !== null && <span aria-hidden="true">— </span>}
          {nameIn(category.translations, lang)}
        </span>
      ),
    },
    {
      key: 'seo',
      header: 'staff_seo.columns.seo',
      cell: (category) => {
        const translation = category.translations.find((tr) => tr.lang === lang);
        return translation ? (
          <SeoState
            lang={lang}
            title={translation.seo_title}
            description={translation.seo_description}
          />
        ) : (
          <span className="text-xs text-slate-500">—</span>
        );
      },
    },
  ];
  return (
    <AdminPage title={t('staff_seo.lists.categories.title')}>
      <SeoTabs />
      <div className="flex flex-wrap items-end gap-3">
        <ChoiceField
          label={t('staff_seo.lists.tree')}
          value={tree}
          options={[
            { value: 'blog', label: t('staff_seo.lists.trees.blog') },
            { value: 'help', label: t('staff_seo.lists.trees.help') },
          ]}
          onChange={setTree}
        />
        <LanguageChoice lang={lang} onChange={setLang} />
      </div>
      <ListPage
        endpoint={endpoint}
        caption={t('staff_seo.lists.categories.caption', {
          language: t(`staff_content.languages.${lang}`),
        })}
        columns={columns}
        rowKey={(category) => category.category_id}
        rowActions={(category) => {
          const name = nameIn(category.translations, lang);
          return (
            <Button
              variant="secondary"
              aria-label={t('staff_seo.lists.edit_named', { name })}
              disabled={!category.translations.some((tr) => tr.lang === lang)}
              onClick={() =>
                setTarget({ type: 'category', tree, category, lang, name, listUrl: endpoint.url })
              }
            >
              {t('staff_seo.lists.edit')}
            </Button>
          );
        }}
        searchLabel={t('staff_seo.lists.search_categories')}
        empty={{
          title: t('staff_seo.lists.categories.empty_title'),
          text: t('staff_seo.lists.empty_text'),
        }}
        fixed={{ lang }}
        perPage={50}
      />
      {target && <SeoEditDialog target={target} onClose={() => setTarget(undefined)} />}
    </AdminPage>
  );
}

export const SeoListPages = {
  categories: CategoriesSeoPage,
  posts: () => <ItemsSeoPage areaName="posts" />,
  articles: () => <ItemsSeoPage areaName="articles" />,
};
