import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LinkButton } from '../../../layout/link-button.tsx';
import { titleKey } from '../../../routes/route-titles.ts';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { INVOICES_PER_PAGE, useInvoices } from './billing-api.ts';
import { BillingPage } from './billing-page.tsx';
import { BillingPager } from './billing-pager.tsx';
import { InvoiceTable } from './invoice-table.tsx';
import { LoadError, Skeleton } from './load-states.tsx';

/** §2 billing.invoices: every invoice, newest first, a page at a time, each as a PDF. */
export function InvoicesPage() {
  const { t } = useTranslation();
  return (
    <BillingPage title={t(titleKey('billing.invoices'))} tabs>
      <InvoiceList />
    </BillingPage>
  );
}

function pageFrom(search: URLSearchParams): number {
  const page = Number(search.get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

function InvoiceList() {
  const { t } = useTranslation();
  // The page is in the URL, so Back and a shared link land on the same page.
  const [search, setSearch] = useSearchParams();
  const page = pageFrom(search);
  const invoices = useInvoices(page, INVOICES_PER_PAGE);
  const setPage = (next: number) =>
    setSearch(
      (current) => {
        const params = new URLSearchParams(current);
        if (next <= 1) params.delete('page');
        else params.set('page', String(next));
        return params;
      },
      { preventScrollReset: true },
    );

  // A page past the end (an old link, invoices gone): the last one instead.
  const lastPage = invoices.data?.controls.last_page;
  // biome-ignore lint/correctness/useExhaustiveDependencies: setPage changes every render
  useEffect(() => {
    if (lastPage !== undefined && page > lastPage) setPage(lastPage);
  }, [lastPage, page]);

  if (invoices.isPending) return <Skeleton lines={8} />;
  if (invoices.isError) {
    return <LoadError error={invoices.error} onRetry={() => invoices.refetch()} />;
  }
  const { items, controls } = invoices.data;
  if (items.length === 0 && controls.total === 0) {
    return (
      <EmptyState
        title={t('invoices.empty_title')}
        text={t('invoices.empty_text')}
        action={
          <LinkButton name="billing.order2" variant="primary">
            {t('invoices.empty_action')}
          </LinkButton>
        }
      />
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <InvoiceTable
        caption={t('invoices.caption')}
        invoices={items}
        busy={invoices.isPlaceholderData}
      />
      <BillingPager
        controls={controls}
        label={t('invoices.pages')}
        onPage={(next) => setPage(next)}
      />
    </div>
  );
}
