import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { CouponProduct } from '#shared/contracts/admin/coupons.ts';
import { productEndpoints } from '#shared/contracts/admin/products.ts';
import { formatMoney } from '#shared/money.ts';
import { call } from '../../../api/client.ts';
import { Select, type SelectOption } from '../../../ui/select.tsx';
import { useLang } from '../../auth/use-lang.ts';

interface Choice {
  product_id: number;
  service_id: number;
  name: string;
  amount: number;
  currency: string;
}

/**
 * The products a coupon is limited to (none: every product), chosen from staff's products
 * list; products already chosen stay named even when the list no longer has them.
 */
export function ProductPicker(props: {
  value: readonly number[];
  onChange: (ids: number[]) => void;
  known: readonly CouponProduct[];
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const id = useId();
  const products = useQuery({
    queryKey: ['admin', productEndpoints.list.url, 'coupon-picker'],
    queryFn: ({ signal }) =>
      call(
        productEndpoints.list,
        { query: { per_page: 100, sort: 'name', direction: 'asc' } },
        { signal },
      ),
    staleTime: 60_000,
  });
  const choices = new Map<number, Choice>();
  for (const product of props.known) choices.set(product.product_id, product);
  for (const product of products.data?.items ?? []) choices.set(product.product_id, product);
  const options: SelectOption<number>[] = [...choices.values()].map((product) => ({
    value: product.product_id,
    name: product.name,
    label: `${t(`staff_coupons.services.${product.service_id}`)} · ${formatMoney(product, lang)}`,
  }));
  const hint = products.isError
    ? t('staff_coupons.form.products_unavailable')
    : t('staff_coupons.form.products_hint');
  return (
    <div className="flex flex-col gap-1">
      <Select<number>
        id={id}
        multiple
        label={t('staff_coupons.fields.product_ids')}
        options={options}
        value={props.value}
        placeholder={t('staff_coupons.form.all_products')}
        emptyText={
          products.isPending
            ? t('staff_coupons.form.products_loading')
            : t('staff_coupons.form.no_products')
        }
        onSelect={(value) => props.onChange([...props.value, value])}
        onDelete={(value) => props.onChange(props.value.filter((chosen) => chosen !== value))}
        error={props.error}
      />
      {!props.error && <p className="text-xs text-slate-500">{hint}</p>}
    </div>
  );
}
