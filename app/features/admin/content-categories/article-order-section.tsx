import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContentCategory } from '#shared/contracts/admin/content.ts';
import { LANGS } from '#shared/locales.ts';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { StateBadge } from '../content/state-badge.tsx';
import { LoadFailed } from '../kit/load-failed.tsx';
import { SortableList, type SortableTexts } from '../kit/sortable-list.tsx';
import { categoryChoices, categoryName } from './category-trees.ts';
import type { ArticleOrder } from './use-article-order.ts';

// Words of their own, not the categories': in some languages an article takes another gender.
const SORT_TEXTS: SortableTexts = {
  help: 'staff_categories.articles.help',
  handle: 'staff_categories.articles.handle',
  moveUp: 'staff_categories.articles.move_up',
  moveDown: 'staff_categories.articles.move_down',
  picked: 'staff_categories.articles.picked',
  moved: 'staff_categories.articles.moved',
  dropped: 'staff_categories.articles.dropped',
  canceled: 'staff_categories.articles.canceled',
};

/**
 * The articles of one help category (or sub-category), chosen from the tree, in the order the
 * public help center lists them; moved like the categories above, saved with them.
 */
export function ArticleOrderSection({
  order,
  categories,
  announce,
  disabled,
}: {
  order: ArticleOrder;
  categories: readonly ContentCategory[];
  announce: (message: string) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const headingId = useId();
  const selectId = useId();
  const { category, saved } = order;
  const name = category ? categoryName(category, lang) : '';
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-base font-semibold text-slate-900">
        {t('staff_categories.articles.title')}
      </h2>
      <div className="flex flex-col gap-1">
        <label htmlFor={selectId} className="text-sm font-medium text-slate-800">
          {t('staff_categories.articles.category')}
        </label>
        <select
          id={selectId}
          value={category ? String(category.category_id) : ''}
          onChange={(event) => order.choose(Number(event.target.value))}
          disabled={disabled}
          className="h-10 max-w-xs rounded-lg border border-[#dfe1e6] bg-white px-3 text-sm focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30 disabled:opacity-60"
        >
          {categoryChoices(categories, lang).map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.text}
            </option>
          ))}
        </select>
      </div>
      {saved.isPending ? (
        <LoadingBlock />
      ) : saved.isError ? (
        <LoadFailed error={saved.error} onRetry={() => saved.refetch()} />
      ) : order.items.length === 0 ? (
        <EmptyState
          title={t('staff_categories.articles.empty_title')}
          text={t('staff_categories.articles.empty_text')}
        />
      ) : (
        <SortableList
          items={order.items}
          idOf={(article) => article.id}
          nameOf={(article) => categoryName(article, lang)}
          label={t('staff_categories.articles.list_label', { name })}
          onMove={order.move}
          announce={announce}
          texts={SORT_TEXTS}
          disabled={disabled}
          renderItem={(article) => (
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p data-testid="article-name" className="min-w-0 font-medium text-slate-900">
                {categoryName(article, lang)}
              </p>
              <ul className="flex flex-wrap gap-1">
                {LANGS.map((code) => (
                  <li key={code}>
                    <StateBadge
                      lang={code}
                      state={
                        article.translations.find((tr) => tr.lang === code)?.state ?? 'missing'
                      }
                    />
                  </li>
                ))}
              </ul>
            </div>
          )}
        />
      )}
    </section>
  );
}
