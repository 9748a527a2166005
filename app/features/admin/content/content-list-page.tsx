import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CONTENT_STATES } from '#shared/content/content-values.ts';
import { type ContentListItem, contentEndpoints } from '#shared/contracts/admin/content.ts';
import { LANGS, type Lang } from '#shared/locales.ts';
import { call } from '../../../api/client.ts';
import { LinkButton } from '../../../layout/link-button.tsx';
import { RouteLink } from '../../../layout/route-link.tsx';
import { useLang } from '../../auth/use-lang.ts';
import {
  CATEGORY_TREES,
  type CategoryTree,
  categoryChoices,
} from '../content-categories/category-trees.ts';
import { useAllCategories } from '../content-categories/use-all-categories.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import type { Column } from '../kit/data-table.tsx';
import { formatDateTime } from '../kit/format.ts';
import type { ListFilter } from '../kit/list-filters.tsx';
import { ListPage } from '../kit/list-page.tsx';
import { CONTENT_AREAS, type ContentArea, type ContentAreaName } from './content-areas.ts';
import { ContentSettingsPanel } from './content-settings-panel.tsx';
import { HelpInsightsPanel } from './help-insights-panel.tsx';
import { StateBadge } from './state-badge.tsx';

const FILTERS: readonly ListFilter[] = [
  {
    name: 'state',
    label: 'staff_content.filters.state',
    options: CONTENT_STATES.map((state) => ({
      value: state,
      label: `staff_content.states.${state}`,
    })),
  },
  {
    name: 'lang',
    label: 'staff_content.filters.lang',
    options: LANGS.map((lang) => ({ value: lang, label: `staff_content.languages.${lang}` })),
  },
];

/** The item's title in the page's language, else English, else its first translation. */
export function titleIn(item: Pick<ContentListItem, 'translations'>, lang: Lang): string {
  const { translations } = item;
  return (
    translations.find((t) => t.lang === lang)?.name ??
    translations.find((t) => t.lang === 'en')?.name ??
    translations[0]?.name ??
    ''
  );
}

function columns(area: ContentArea, lang: Lang): Column<ContentListItem>[] {
  const all: (Column<ContentListItem> | false)[] = [
    {
      key: 'name',
      header: 'staff_content.columns.name',
      sort: 'name',
      cell: (item) => (
        <RouteLink
          name={area.edit}
          params={{ id: String(item.id) }}
          className="font-medium text-brand-700 hover:underline"
        >
          {titleIn(item, lang)}
        </RouteLink>
      ),
    },
    {
      key: 'languages',
      header: 'staff_content.columns.languages',
      cell: (item) => (
        <ul className="flex flex-wrap gap-1">
          {LANGS.map((code) => (
            <li key={code}>
              <StateBadge
                lang={code}
                state={item.translations.find((t) => t.lang === code)?.state ?? 'missing'}
              />
            </li>
          ))}
        </ul>
      ),
    },
    area.categories !== undefined && {
      key: 'category',
      header: 'staff_content.columns.category',
      cell: (item) => item.category?.name ?? '—',
    },
    {
      key: 'author',
      header: 'staff_content.columns.author',
      cell: (item) => item.author?.name ?? '—',
    },
    {
      key: 'updated',
      header: 'staff_content.columns.updated',
      sort: 'updated_at',
      cell: (item) => formatDateTime(item.updated_at, lang),
    },
  ];
  return all.filter((column): column is Column<ContentListItem> => column !== false);
}

/** §2 the overview of one content section: every item with its languages' states. */
function ContentListPage({ areaName }: { areaName: ContentAreaName }) {
  const { t } = useTranslation();
  const area = CONTENT_AREAS[areaName];
  const texts = `staff_content.areas.${areaName}`;
  const tree = Object.values(CATEGORY_TREES).find(
    (candidate) => candidate.endpoints.list === area.categories,
  );
  return (
    <AdminPage
      title={t(`${texts}.title`)}
      actions={
        area.create && (
          <LinkButton name={area.create} variant="primary">
            {t(`${texts}.new`)}
          </LinkButton>
        )
      }
    >
      {areaName === 'posts' && <ContentSettingsPanel />}
      {tree ? <FiledContentList area={area} tree={tree} /> : <AuthoredContentList area={area} />}
      {areaName === 'articles' && <HelpInsightsPanel />}
    </AdminPage>
  );
}

/** The people who wrote the area's items, as the author filter's choices. */
function useAuthorFilter(area: ContentArea): ListFilter {
  const authors = useQuery({
    queryKey: ['admin', contentEndpoints.authors.url, area.kind],
    queryFn: ({ signal }) =>
      call(contentEndpoints.authors, { query: { kind: area.kind } }, { signal }),
  });
  return useMemo(
    () => ({
      name: 'author_id',
      label: 'staff_content.filters.author',
      options: (authors.data?.items ?? []).map((person) => ({
        value: String(person.user_id),
        text: person.name,
      })),
    }),
    [authors.data],
  );
}

/**
 * The list of an area whose items are filed in a category tree, with the category filter
 * too: its choices are the tree's categories, a top-level one followed by its own.
 */
function FiledContentList({ area, tree }: { area: ContentArea; tree: CategoryTree }) {
  const lang = useLang();
  const categories = useAllCategories(tree);
  const author = useAuthorFilter(area);
  const filters = useMemo(
    () => [
      ...FILTERS,
      {
        name: 'category_id',
        label: 'staff_content.filters.category',
        options: categoryChoices(categories.data ?? [], lang),
      },
      author,
    ],
    [categories.data, lang, author],
  );
  return <ContentList area={area} filters={filters} />;
}

function AuthoredContentList({ area }: { area: ContentArea }) {
  const author = useAuthorFilter(area);
  const filters = useMemo(() => [...FILTERS, author], [author]);
  return <ContentList area={area} filters={filters} />;
}

function ContentList({ area, filters }: { area: ContentArea; filters: readonly ListFilter[] }) {
  const { t } = useTranslation();
  const lang = useLang();
  const texts = `staff_content.areas.${area.name}`;
  return (
    <ListPage
      endpoint={area.list}
      caption={t(`${texts}.caption`)}
      columns={columns(area, lang)}
      rowKey={(item) => item.id}
      filters={filters}
      searchLabel={t('staff_content.filters.search')}
      empty={{ title: t(`${texts}.empty_title`), text: t(`${texts}.empty_text`) }}
      fixed={area.fixed}
    />
  );
}

export const ContentListPages = {
  posts: () => <ContentListPage areaName="posts" />,
  articles: () => <ContentListPage areaName="articles" />,
  pages: () => <ContentListPage areaName="pages" />,
  static_pages: () => <ContentListPage areaName="static_pages" />,
  faq: () => <ContentListPage areaName="faq" />,
};
