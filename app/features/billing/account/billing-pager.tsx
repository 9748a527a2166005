import { useTranslation } from 'react-i18next';
import type { ListControls } from '#shared/contracts/list.ts';
import { Button } from '../../../ui/button.tsx';

/** §3 list controls as a pager: where we are, how many in all, previous and next. */
export function BillingPager({
  controls,
  label,
  onPage,
}: {
  controls: ListControls;
  /** Names the navigation region (which list it pages). */
  label: string;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const { page, last_page: last, total } = controls;
  return (
    <nav
      aria-label={label}
      className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600"
    >
      <p aria-live="polite">{t('billing_account.pager.page_of', { page, last, total })}</p>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {t('billing_account.pager.previous')}
        </Button>
        <Button variant="secondary" disabled={page >= last} onClick={() => onPage(page + 1)}>
          {t('billing_account.pager.next')}
        </Button>
      </div>
    </nav>
  );
}
