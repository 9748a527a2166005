import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AdminProduct, productEndpoints } from '#shared/contracts/admin/products.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { FormError } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';

/** What the server merges: same service, currency, billing period and kind, not itself. */
function compatible(a: AdminProduct, b: AdminProduct): boolean {
  return (
    a.product_id !== b.product_id &&
    a.service_id === b.service_id &&
    a.currency === b.currency &&
    a.onetime === b.onetime &&
    a.interval === b.interval &&
    a.interval_count === b.interval_count &&
    a.additional === b.additional
  );
}

/**
 * Folds this product into another that sells the same: its subscriptions, invoices,
 * coupons and gateway prices move there, and this one is deleted. The target is chosen among
 * compatible products only.
 */
export function MergeProductDialog(props: {
  product: AdminProduct;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onMerged: (into: AdminProduct) => Promise<void>;
}) {
  const { t } = useTranslation();
  const { product } = props;
  const selectId = useId();
  const [target, setTarget] = useState('');
  const [error, setError] = useState<string>();
  const [merging, setMerging] = useState(false);
  const candidates = useQuery({
    queryKey: ['admin', productEndpoints.list.url, 'merge', product.product_id],
    queryFn: ({ signal }) =>
      call(
        productEndpoints.list,
        {
          query: {
            service_id: product.service_id,
            currency: product.currency,
            per_page: 100,
            sort: 'name',
            direction: 'asc',
          } as never,
        },
        { signal },
      ),
    enabled: props.open,
  });
  const choices = (candidates.data?.items ?? []).filter((other) => compatible(product, other));

  const merge = async () => {
    if (!target) {
      setError('input_errors.field_is_required');
      return;
    }
    setMerging(true);
    setError(undefined);
    try {
      const answer = await call(productEndpoints.merge, {
        body: { from_product_id: product.product_id, into_product_id: Number(target) },
      });
      props.onOpenChange(false);
      await props.onMerged(answer.product);
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setMerging(false);
    }
  };

  return (
    <Modal
      open={props.open}
      onOpenChange={props.onOpenChange}
      dismissible={!merging}
      title={t('staff_catalog.merge.title', { name: product.name })}
      description={t('staff_catalog.merge.text')}
      footer={
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => props.onOpenChange(false)} disabled={merging}>
            {t('staff.kit.cancel')}
          </Button>
          <Button
            variant="danger"
            onClick={merge}
            loading={merging}
            disabled={choices.length === 0}
            data-action="product-merge"
          >
            {t('staff_catalog.merge.confirm')}
          </Button>
        </div>
      }
    >
      {candidates.isPending ? (
        <LoadingBlock />
      ) : choices.length === 0 ? (
        <p className="text-sm text-slate-600">{t('staff_catalog.merge.none')}</p>
      ) : (
        <div className="flex flex-col gap-1">
          <label htmlFor={selectId} className="text-sm font-medium text-slate-800">
            {t('staff_catalog.merge.into')}
          </label>
          <select
            id={selectId}
            value={target}
            onChange={(event) => setTarget(event.target.value)}
            aria-invalid={error ? true : undefined}
            className="h-10 rounded-lg border border-[#dfe1e6] bg-white px-3 text-sm"
          >
            <option value="">{t('staff_catalog.merge.choose')}</option>
            {choices.map((other) => (
              <option key={other.product_id} value={other.product_id}>
                {other.name} (#{other.product_id})
              </option>
            ))}
          </select>
        </div>
      )}
      <FormError message={error} className="mt-3" />
    </Modal>
  );
}
