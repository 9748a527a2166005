import { useTranslation } from 'react-i18next';
import type { ListControls } from '#shared/contracts/list.ts';
import { Button } from '../../../ui/button.tsx';

/** §3 list controls as a pager: where we are, how many in all, previous and next. */
export function Pager({
  controls,
  onPage,
}: {
  controls: ListControls;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const { page, last_page: last, total } = controls;
  return (
    <nav
      aria-label={t('staff.kit.pages')}
      className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600"
    >
      <p aria-live="polite">{t('staff.kit.page_of', { page, last, total })}</p>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {t('staff.kit.previous')}
        </Button>
        <Button variant="secondary" disabled={page >= last} onClick={() => onPage(page + 1)}>
          {t('staff.kit.next')}
        </Button>
      </div>
    </nav>
  );
}
