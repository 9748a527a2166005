import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ContentCategory, helpCategoryEndpoints } from '#shared/contracts/admin/content.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { type PluralForms, pluralKey } from '../../../i18n/plural.ts';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { notify, notifyRequestError } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { useMayPublish } from '../content/use-may-publish.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import { SortableList, type SortableTexts } from '../kit/sortable-list.tsx';
import { useUnsavedGuard } from '../kit/use-unsaved-guard.ts';
import { ArticleOrderSection } from './article-order-section.tsx';
import { LanguageList } from './category-columns.tsx';
import { HelpCategoryTabs } from './category-list-pages.tsx';
import { CATEGORY_TREES, categoriesKey, categoryName } from './category-trees.ts';
import { LiveOnlyNotice } from './live-only-notice.tsx';
import { useAllCategories } from './use-all-categories.ts';
import { useArticleOrder } from './use-article-order.ts';

const SORT_TEXTS: SortableTexts = {
  help: 'staff_categories.sort.help',
  handle: 'staff_categories.sort.handle',
  moveUp: 'staff_categories.sort.move_up',
  moveDown: 'staff_categories.sort.move_down',
  picked: 'staff_categories.sort.picked',
  moved: 'staff_categories.sort.moved',
  dropped: 'staff_categories.sort.dropped',
  canceled: 'staff_categories.sort.canceled',
};

const CHILDREN: PluralForms = {
  one: 'staff_categories.sort.children.one',
  few: 'staff_categories.sort.children.few',
  many: 'staff_categories.sort.children.many',
  other: 'staff_categories.sort.children.other',
};
const ITEMS: PluralForms = {
  one: 'staff_categories.sort.items.one',
  few: 'staff_categories.sort.items.few',
  many: 'staff_categories.sort.items.many',
  other: 'staff_categories.sort.items.other',
};

/** The order of each level: the top level under 0, a parent's sub-categories under its id. */
type Order = Record<number, number[]>;

function orderOf(categories: readonly ContentCategory[]): Order {
  const order: Order = { 0: [] };
  for (const category of categories) {
    const parent = category.parent_category_id ?? 0;
    order[parent] = [...(order[parent] ?? []), category.category_id];
  }
  return order;
}

const sameIds = (a: readonly number[] = [], b: readonly number[] = []) =>
  a.length === b.length && a.every((id, index) => id === b[index]);

function moveId(ids: readonly number[], id: number, to: number): number[] {
  const rest = ids.filter((other) => other !== id);
  return [...rest.slice(0, to), id, ...rest.slice(to)];
}

/**
 * §2 /admin/help-center/categories/sorting: the order of the top-level categories, of each
 * one's sub-categories, and of the articles of any category, by drag, keyboard or buttons;
 * saved together, a level (or a category's articles) at a time.
 */
function CategorySortingPage() {
  return (
    <QueryProvider>
      <CategorySorting />
    </QueryProvider>
  );
}

function CategorySorting() {
  const { t } = useTranslation();
  const all = useAllCategories(CATEGORY_TREES.help);
  const mayPublish = useMayPublish();
  return (
    <AdminPage title={t('staff_categories.sort.title')}>
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
      ) : all.data.length === 0 ? (
        <EmptyState
          title={t('staff_categories.trees.help.empty_title')}
          text={t('staff_categories.trees.help.empty_text')}
        />
      ) : (
        <SortingEditor categories={all.data} />
      )}
    </AdminPage>
  );
}

function SortingEditor({ categories }: { categories: readonly ContentCategory[] }) {
  const { t } = useTranslation();
  const lang = useLang();
  const queryClient = useQueryClient();
  const base = useMemo(() => orderOf(categories), [categories]);
  const byId = useMemo(
    () => new Map(categories.map((category) => [category.category_id, category])),
    [categories],
  );
  const [edited, setEdited] = useState<Order | null>(null);
  const order = edited ?? base;
  const changed = Object.keys(order)
    .map(Number)
    .filter((parent) => !sameIds(order[parent], base[parent]));
  const articles = useArticleOrder(categories);
  const mayPublish = useMayPublish();
  const dirty = changed.length > 0 || articles.dirty;
  const [saving, setSaving] = useState(false);
  const [announcement, setAnnouncement] = useState({ text: '', count: 0 });
  const announce = (text: string) =>
    setAnnouncement((previous) => ({ text, count: previous.count + 1 }));
  useUnsavedGuard(dirty && !saving, 'staff_categories.sort.leave_text');

  const moveIn = (parent: number) => (id: number, to: number) =>
    setEdited((current) => {
      const now = current ?? base;
      return { ...now, [parent]: moveId(now[parent] ?? [], id, to) };
    });

  const discard = () => {
    setEdited(null);
    articles.discard();
    announce(t('staff_categories.sort.discarded'));
  };

  const save = async () => {
    if (!dirty) return;
    setSaving(true);
    try {
      // One level at a time: each call is every category of that level, once.
      for (const parent of changed) {
        await call(helpCategoryEndpoints.sort, {
          body: {
            parent_category_id: parent === 0 ? null : parent,
            category_ids: order[parent] ?? [],
          },
        });
      }
      // Then the articles, a category at a time, each call every article of it.
      await articles.save();
      await queryClient.invalidateQueries({ queryKey: categoriesKey(CATEGORY_TREES.help) });
      setEdited(null);
      notify.success('staff_categories.sort.saved');
    } catch (error) {
      // What was saved before the failure is read again; the rest stays as arranged.
      void queryClient.invalidateQueries({ queryKey: categoriesKey(CATEGORY_TREES.help) });
      notifyRequestError(error);
    } finally {
      setSaving(false);
    }
  };

  const levels = [0, ...(order[0] ?? []).filter((id) => (order[id] ?? []).length > 0)];

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-end gap-3">
        <p role="status" className="text-sm text-amber-800">
          {dirty ? t('staff_categories.sort.unsaved') : ''}
        </p>
        <Button variant="secondary" onClick={discard} disabled={!dirty || saving}>
          {t('staff_categories.sort.discard')}
        </Button>
        <Button
          onClick={() => void save()}
          loading={saving}
          disabled={!dirty || mayPublish === false}
        >
          {t('staff_categories.sort.save')}
        </Button>
      </div>
      {levels.map((parent) => {
        const items = (order[parent] ?? []).flatMap((id) => byId.get(id) ?? []);
        const parentCategory = byId.get(parent);
        const heading = parentCategory
          ? t('staff_categories.sort.sub_title', { name: categoryName(parentCategory, lang) })
          : t('staff_categories.sort.top_title');
        const headingId = `category-level-${parent}`;
        return (
          <section key={parent} aria-labelledby={headingId} className="flex flex-col gap-3">
            <h2 id={headingId} className="text-base font-semibold text-slate-900">
              {heading}
            </h2>
            <SortableList
              items={items}
              idOf={(category) => category.category_id}
              nameOf={(category) => categoryName(category, lang)}
              label={
                parentCategory
                  ? t('staff_categories.sort.sub_label', {
                      name: categoryName(parentCategory, lang),
                    })
                  : t('staff_categories.sort.top_label')
              }
              onMove={moveIn(parent)}
              announce={announce}
              texts={SORT_TEXTS}
              disabled={saving}
              renderItem={(category) => (
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <div className="min-w-0">
                    <p data-testid="category-name" className="font-medium text-slate-900">
                      {categoryName(category, lang)}
                    </p>
                    <p className="text-xs text-slate-500">
                      {parent === 0
                        ? t(pluralKey(CHILDREN, (order[category.category_id] ?? []).length, lang), {
                            n: (order[category.category_id] ?? []).length,
                          })
                        : t(pluralKey(ITEMS, category.items_count, lang), {
                            n: category.items_count,
                          })}
                    </p>
                  </div>
                  <LanguageList category={category} />
                </div>
              )}
            />
          </section>
        );
      })}
      <ArticleOrderSection
        order={articles}
        categories={categories}
        announce={announce}
        disabled={saving}
      />
      <div
        aria-live="assertive"
        aria-atomic="true"
        className="sr-only"
        data-testid="categories-announcer"
      >
        {announcement.text}
        {/* The same words twice in a row are still read out. */}
        {announcement.count % 2 === 0 ? '' : '\u00a0'}
      </div>
    </div>
  );
}

export { CategorySortingPage };
