import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AdminProduct, productEndpoints } from '#shared/contracts/admin/products.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { Button } from '../../../ui/button.tsx';
import { FormError } from '../../../ui/form-field.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { notify } from '../../../ui/toast.tsx';

/**
 * The includable addons a plan comes with (§3 includable_product_id): those of its service
 * and currency, chosen by checkbox, saved as a whole.
 */
export function ProductIncludesPanel(props: {
  product: AdminProduct;
  onSaved: (product: AdminProduct) => Promise<void>;
}) {
  const { t } = useTranslation();
  const { product } = props;
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set(product.includable_product_id));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const addons = useQuery({
    queryKey: ['admin', productEndpoints.includable.url, product.service_id, product.currency],
    queryFn: ({ signal }) =>
      call(
        productEndpoints.includable,
        { query: { service_id: product.service_id, currency: product.currency } },
        { signal },
      ),
  });

  const save = async () => {
    setSaving(true);
    setError(undefined);
    try {
      const answer = await call(productEndpoints.includesUpdate, {
        body: { product_id: product.product_id, includable_product_ids: [...chosen] },
      });
      notify.success('staff_catalog.done.includes_saved');
      await props.onSaved(answer.product);
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Panel
      id="product-includes"
      title={t('staff_catalog.includes.title')}
      description={t('staff_catalog.includes.text')}
    >
      {addons.isPending ? (
        <LoadingBlock />
      ) : addons.isError ? (
        <FormError message={failureMessage(addons.error)} />
      ) : addons.data.items.length === 0 ? (
        <p className="text-sm text-slate-600">{t('staff_catalog.includes.none')}</p>
      ) : (
        <fieldset className="flex flex-col gap-2">
          <legend className="sr-only">{t('staff_catalog.includes.title')}</legend>
          {addons.data.items.map((addon) => (
            <label key={addon.product_id} className="inline-flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4 rounded border-[#dfe1e6] accent-brand-500"
                checked={chosen.has(addon.product_id)}
                onChange={(event) =>
                  setChosen((current) => {
                    const next = new Set(current);
                    if (event.target.checked) next.add(addon.product_id);
                    else next.delete(addon.product_id);
                    return next;
                  })
                }
              />
              {addon.name} (#{addon.product_id})
            </label>
          ))}
        </fieldset>
      )}
      <FormError message={error} className="mt-3" />
      <div className="mt-4 flex justify-end">
        <Button onClick={save} loading={saving} disabled={addons.isPending}>
          {t('staff_catalog.includes.save')}
        </Button>
      </div>
    </Panel>
  );
}
