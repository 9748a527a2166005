import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContentCategory } from '#shared/contracts/admin/content.ts';
import { LANGS } from '#shared/locales.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { useRoutePath } from '../../../layout/route-link.tsx';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { useMayPublish } from '../content/use-may-publish.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import { DataTable } from '../kit/data-table.tsx';
import type { ListFilter } from '../kit/list-filters.tsx';
import { ListPage } from '../kit/list-page.tsx';
import { PageTabs } from '../kit/page-tabs.tsx';
import { categoryColumns, useCategoryActions } from './category-columns.tsx';
import { CategoryEditor } from './category-editor.tsx';
import { CATEGORY_TREES, type CategoryTreeName, categoryName } from './category-trees.ts';
import { LiveOnlyNotice } from './live-only-notice.tsx';
import { useAllCategories } from './use-all-categories.ts';

const FILTERS: readonly ListFilter[] = [
  {
    name: 'lang',
    label: 'staff_categories.filters.lang',
    options: LANGS.map((lang) => ({ value: lang, label: `staff_content.languages.${lang}` })),
  },
];

/** The editor's state on a list screen: closed, a new category, or one being edited. */
type Editing = { category?: ContentCategory; parentId?: number | null } | null;

/** The help center's three category screens, as tabs. */
export function HelpCategoryTabs() {
  const { t } = useTranslation();
  const tabs = [
    {
      to: useRoutePath('admin.help-center.categories.overview'),
      label: t('staff_categories.tabs.overview'),
    },
    {
      to: useRoutePath('admin.help-center.categories.sub-categories'),
      label: t('staff_categories.tabs.sub_categories'),
    },
    {
      to: useRoutePath('admin.help-center.categories.sorting'),
      label: t('staff_categories.tabs.sorting'),
    },
  ];
  return <PageTabs label={t('staff_categories.tabs.label')} tabs={tabs} />;
}

/**
 * §2 the categories of a tree at its top level (the blog's are all there), with their five
 * languages; new ones and changes through the editor dialog.
 */
function CategoryListPage({ treeName }: { treeName: CategoryTreeName }) {
  return (
    <QueryProvider>
      <CategoryListScreen treeName={treeName} />
    </QueryProvider>
  );
}

function CategoryListScreen({ treeName }: { treeName: CategoryTreeName }) {
  const { t } = useTranslation();
  const tree = CATEGORY_TREES[treeName];
  const texts = `staff_categories.trees.${treeName}`;
  const [editing, setEditing] = useState<Editing>(null);
  const mayPublish = useMayPublish();
  return (
    <AdminPage
      title={t(`${texts}.title`)}
      actions={
        mayPublish !== false && (
          <Button variant="primary" onClick={() => setEditing({})}>
            {t(`${texts}.new`)}
          </Button>
        )
      }
    >
      {tree.nested && <HelpCategoryTabs />}
      <LiveOnlyNotice mayPublish={mayPublish} />
      <CategoryList treeName={treeName} onEdit={(category) => setEditing({ category })} />
      {editing && tree.nested && <HelpEditor editing={editing} onClose={() => setEditing(null)} />}
      {editing && !tree.nested && (
        <CategoryEditor tree={tree} category={editing.category} onClose={() => setEditing(null)} />
      )}
    </AdminPage>
  );
}

function CategoryList({
  treeName,
  onEdit,
}: {
  treeName: CategoryTreeName;
  onEdit: (category: ContentCategory) => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const tree = CATEGORY_TREES[treeName];
  const texts = `staff_categories.trees.${treeName}`;
  const actions = useCategoryActions(tree, lang);
  return (
    <ListPage
      endpoint={tree.endpoints.list}
      caption={t(`${texts}.caption`)}
      columns={categoryColumns(lang, onEdit)}
      rowKey={(category) => category.category_id}
      rowActions={actions(onEdit)}
      filters={FILTERS}
      searchLabel={t('staff_categories.filters.search')}
      empty={{ title: t(`${texts}.empty_title`), text: t(`${texts}.empty_text`) }}
      // The help center's top level; its sub-categories have a screen of their own.
      fixed={tree.nested ? { parent_category_id: 0 } : undefined}
      perPage={50}
    />
  );
}

/** The editor of a help category, with the top-level categories to choose a parent from. */
function HelpEditor({
  editing,
  onClose,
  requireParent = false,
}: {
  editing: NonNullable<Editing>;
  onClose: () => void;
  requireParent?: boolean;
}) {
  const tree = CATEGORY_TREES.help;
  const all = useAllCategories(tree);
  if (all.isPending) return null;
  return (
    <CategoryEditor
      tree={tree}
      category={editing.category}
      parents={all.data ?? []}
      initialParentId={editing.parentId}
      requireParent={requireParent}
      onClose={onClose}
    />
  );
}

/** §2 the help center's sub-categories, each with its parent; a parent to narrow them to. */
function SubCategoriesPage() {
  return (
    <QueryProvider>
      <SubCategories />
    </QueryProvider>
  );
}

function SubCategories() {
  const { t } = useTranslation();
  const lang = useLang();
  const tree = CATEGORY_TREES.help;
  const all = useAllCategories(tree);
  const actions = useCategoryActions(tree, lang);
  const [parentFilter, setParentFilter] = useState('');
  const [editing, setEditing] = useState<Editing>(null);
  const parents = new Map(
    (all.data ?? [])
      .filter((category) => category.parent_category_id === null)
      .map((category) => [category.category_id, category]),
  );
  const rows = (all.data ?? []).filter(
    (category) =>
      category.parent_category_id !== null &&
      (parentFilter === '' || category.parent_category_id === Number(parentFilter)),
  );
  const onEdit = (category: ContentCategory) => setEditing({ category });
  const filterId = 'sub-categories-parent';
  const mayPublish = useMayPublish();
  return (
    <AdminPage
      title={t('staff_categories.sub.title')}
      actions={
        mayPublish !== false && (
          <Button
            variant="primary"
            onClick={() =>
              setEditing({ parentId: parentFilter === '' ? null : Number(parentFilter) })
            }
          >
            {t('staff_categories.sub.new')}
          </Button>
        )
      }
    >
      <HelpCategoryTabs />
      <LiveOnlyNotice mayPublish={mayPublish} />
      {all.isPending ? (
        <LoadingBlock />
      ) : all.isError ? (
        <EmptyState
          title={t('staff.kit.load_failed')}
          text={t(failureMessage(all.error))}
          action={<Button onClick={() => all.refetch()}>{t('staff.kit.retry')}</Button>}
        />
      ) : (
        <div className="flex flex-col gap-4">
          <search className="flex flex-col gap-1">
            <label htmlFor={filterId} className="text-sm font-medium text-slate-800">
              {t('staff_categories.sub.parent_filter')}
            </label>
            <select
              id={filterId}
              value={parentFilter}
              onChange={(event) => setParentFilter(event.target.value)}
              className="h-10 max-w-xs rounded-lg border border-[#dfe1e6] bg-white px-3 text-sm"
            >
              <option value="">{t('staff_categories.sub.all_parents')}</option>
              {[...parents.values()].map((parent) => (
                <option key={parent.category_id} value={parent.category_id}>
                  {categoryName(parent, lang)}
                </option>
              ))}
            </select>
          </search>
          {rows.length === 0 ? (
            <EmptyState
              title={t('staff_categories.sub.empty_title')}
              text={t('staff_categories.sub.empty_text')}
            />
          ) : (
            <DataTable
              caption={t('staff_categories.sub.caption')}
              columns={categoryColumns(lang, onEdit, parents)}
              rows={rows}
              rowKey={(category) => category.category_id}
              rowActions={actions(onEdit)}
              sort={undefined}
              direction={undefined}
              busy={all.isFetching}
              onSort={() => {}}
            />
          )}
        </div>
      )}
      {editing && (
        <HelpEditor
          editing={editing}
          requireParent={editing.category === undefined}
          onClose={() => setEditing(null)}
        />
      )}
    </AdminPage>
  );
}

export const CategoryListPages = {
  blog: () => <CategoryListPage treeName="blog" />,
  help: () => <CategoryListPage treeName="help" />,
  sub: () => <SubCategoriesPage />,
};
