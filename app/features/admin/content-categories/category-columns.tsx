import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ContentCategory } from '#shared/contracts/admin/content.ts';
import { LANGS, type Lang } from '#shared/locales.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { notify } from '../../../ui/toast.tsx';
import type { Column } from '../kit/data-table.tsx';
import { type CategoryTree, categoriesKey, categoryName, categorySlug } from './category-trees.ts';

/** The five languages of a category: which are written, for the eye and for screen readers. */
export function LanguageList({ category }: { category: ContentCategory }) {
  const { t } = useTranslation();
  return (
    <ul className="flex flex-wrap gap-1">
      {LANGS.map((code) => {
        const written = category.translations.some((tr) => tr.lang === code);
        const label = t('staff_categories.language_state', {
          language: t(`staff_content.languages.${code}`),
          state: t(written ? 'staff_categories.written' : 'staff_categories.missing'),
        });
        return (
          <li
            key={code}
            title={label}
            className={`rounded px-1.5 py-0.5 text-xs font-semibold uppercase ${written ? 'bg-emerald-50 text-emerald-800' : 'bg-slate-100 text-slate-400 line-through'}`}
          >
            <span aria-hidden="true">{code}</span>
            <span className="sr-only">{label}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** The columns of a category list; `parents` adds the parent's (the sub-categories). */
export function categoryColumns(
  lang: Lang,
  onEdit: (category: ContentCategory) => void,
  parents?: ReadonlyMap<number, ContentCategory>,
): Column<ContentCategory>[] {
  const columns: Column<ContentCategory>[] = [
    {
      key: 'name',
      header: 'staff_categories.columns.name',
      cell: (category) => (
        <button
          type="button"
          onClick={() => onEdit(category)}
          className="text-left font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
        >
          {categoryName(category, lang)}
        </button>
      ),
    },
    {
      key: 'url',
      header: 'staff_categories.columns.url',
      cell: (category) => <code className="text-xs">{categorySlug(category, lang)}</code>,
    },
    {
      key: 'languages',
      header: 'staff_categories.columns.languages',
      cell: (category) => <LanguageList category={category} />,
    },
    {
      key: 'items',
      header: 'staff_categories.columns.items',
      className: 'tabular-nums',
      cell: (category) => category.items_count,
    },
  ];
  if (parents) {
    columns.splice(1, 0, {
      key: 'parent',
      header: 'staff_categories.columns.parent',
      cell: (category) => {
        const parent = parents.get(category.parent_category_id ?? 0);
        return parent ? categoryName(parent, lang) : '—';
      },
    });
  }
  return columns;
}

/** A row's buttons: edit opens the editor, delete asks first (and shows a refusal there). */
export function useCategoryActions(tree: CategoryTree, lang: Lang) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const remove = async (category: ContentCategory) => {
    const name = categoryName(category, lang);
    const yes = await confirm({
      title: t('staff_categories.delete.title', { name }),
      text: t('staff_categories.delete.text'),
      icon: 'danger',
      actionName: 'delete-category',
      yes: { label: t('staff_categories.delete.confirm'), variant: 'danger' },
      onConfirm: () => call(tree.endpoints.delete, { body: { category_id: category.category_id } }),
    });
    if (!yes) return;
    notify.success('staff_categories.delete.done', { values: { name } });
    await queryClient.invalidateQueries({ queryKey: categoriesKey(tree) });
  };
  return (onEdit: (category: ContentCategory) => void) => (category: ContentCategory) => {
    const name = categoryName(category, lang);
    return (
      <div className="inline-flex gap-2">
        <Button
          variant="secondary"
          aria-label={t('staff_categories.actions.edit_named', { name })}
          onClick={() => onEdit(category)}
        >
          {t('staff_categories.actions.edit')}
        </Button>
        <Button
          variant="ghost"
          aria-label={t('staff_categories.actions.delete_named', { name })}
          onClick={() => void remove(category)}
        >
          {t('staff_categories.actions.delete')}
        </Button>
      </div>
    );
  };
}
