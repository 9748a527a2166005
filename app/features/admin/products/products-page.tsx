import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AdminProduct, productEndpoints } from '#shared/contracts/admin/products.ts';
import { call } from '../../../api/client.ts';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { RouteLink } from '../../../layout/route-link.tsx';
import { titleKey } from '../../../routes/route-titles.ts';
import { Button } from '../../../ui/button.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useBusyAction } from '../../../ui/use-busy-action.ts';
import { useLang } from '../../auth/use-lang.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import type { Column } from '../kit/data-table.tsx';
import type { ListFilter } from '../kit/list-filters.tsx';
import { ListPage } from '../kit/list-page.tsx';
import { CreateProductDialog } from './create-product-dialog.tsx';
import { CURRENCIES } from './product-form.tsx';
import { PRODUCTS_SCREENS, type ProductsScreenKey, SERVICE_LABELS } from './product-screens.ts';
import { ProductPrice, ProductState } from './product-state.tsx';

const YES_NO = [
  { value: 'true', label: 'staff.kit.yes' },
  { value: 'false', label: 'staff.kit.no' },
];

const COMMON_FILTERS: readonly ListFilter[] = [
  {
    name: 'currency',
    label: 'staff_catalog.fields.currency',
    options: CURRENCIES.map((code) => ({ value: code, label: code })),
  },
  { name: 'visible', label: 'staff_catalog.fields.visible', options: YES_NO },
  { name: 'disabled', label: 'staff_catalog.fields.disabled', options: YES_NO },
];

const KIND_FILTER: ListFilter = {
  name: 'kind',
  label: 'staff_catalog.filters.kind',
  options: (['plans', 'addons', 'includable'] as const).map((kind) => ({
    value: kind,
    label: `staff_catalog.kinds.${kind}`,
  })),
};

const SERVICE_FILTER: ListFilter = {
  name: 'service_id',
  label: 'staff_catalog.fields.service_id',
  options: Object.entries(SERVICE_LABELS).map(([id, label]) => ({ value: id, label })),
};

type Bulk = 'show' | 'hide' | 'enable' | 'disable';
const BULK_CHANGES: Record<Bulk, { visible?: boolean; disabled?: boolean }> = {
  show: { visible: true },
  hide: { visible: false },
  enable: { disabled: false },
  disable: { disabled: true },
};

/**
 * §2 /admin/payment-gateways/{gateway}/products and the addons' modules and products: the
 * service's products with filters, bulk show/hide and enable/disable (one mass update), and
 * a button for a new one; each row opens its product.
 */
function ProductsScreen({ screenKey }: { screenKey: ProductsScreenKey }) {
  const { t } = useTranslation();
  const lang = useLang();
  const screen = PRODUCTS_SCREENS[screenKey];
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const { busy, run } = useBusyAction<Bulk>();
  const title = t(titleKey(screen.route));

  const toggle = (id: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const bulk = (action: Bulk) =>
    run(action, async () => {
      const items = [...selected].map((product_id) => ({ product_id, ...BULK_CHANGES[action] }));
      await call(productEndpoints.massUpdate, { body: { items } });
      notify.success(`staff_catalog.done.bulk_${action}`, { values: { count: items.length } });
      setSelected(new Set());
      await queryClient.invalidateQueries({ queryKey: ['admin', productEndpoints.list.url] });
    });

  const columns: readonly Column<AdminProduct>[] = [
    {
      key: 'select',
      header: 'staff_catalog.columns.select',
      className: 'w-10',
      cell: (product) => (
        <input
          type="checkbox"
          className="size-4 rounded border-[#dfe1e6] accent-brand-500"
          checked={selected.has(product.product_id)}
          onChange={(event) => toggle(product.product_id, event.target.checked)}
          aria-label={t('staff_catalog.select_product', { name: product.name })}
        />
      ),
    },
    {
      key: 'name',
      header: 'staff_catalog.fields.name',
      sort: 'name',
      cell: (product) => (
        <RouteLink
          name={screen.detail}
          params={{ product_id: String(product.product_id) }}
          className="font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
        >
          {product.name}
        </RouteLink>
      ),
    },
    { key: 'plan', header: 'staff_catalog.fields.plan', cell: (product) => product.plan },
    ...(screen.serviceId === null
      ? [
          {
            key: 'service',
            header: 'staff_catalog.fields.service_id',
            cell: (product: AdminProduct) => t(SERVICE_LABELS[product.service_id]),
          },
        ]
      : []),
    {
      key: 'amount',
      header: 'staff_catalog.fields.amount',
      sort: 'amount',
      cell: (product) => <ProductPrice product={product} lang={lang} />,
    },
    {
      key: 'state',
      header: 'staff_catalog.columns.state',
      cell: (product) => <ProductState product={product} />,
    },
    {
      key: 'active_subscriptions',
      header: 'staff_catalog.columns.subscriptions',
      cell: (product) => product.active_subscriptions,
    },
    {
      key: 'sort',
      header: 'staff_catalog.fields.sort',
      sort: 'sort',
      cell: (product) => product.sort,
    },
  ];

  const fixed: Record<string, string | number> = {};
  if (screen.serviceId !== null) fixed.service_id = screen.serviceId;
  if (screen.kind !== null) fixed.kind = screen.kind;
  const filters =
    screen.serviceId === null
      ? [SERVICE_FILTER, ...COMMON_FILTERS]
      : [KIND_FILTER, ...COMMON_FILTERS];

  return (
    <AdminPage
      title={title}
      actions={
        <>
          {screen.settings && (
            <RouteLink
              name={screen.settings}
              className="inline-flex h-10 items-center rounded-lg border border-[#dfe1e6] bg-white px-4 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-500"
            >
              {t('staff_catalog.gateway_settings')}
            </RouteLink>
          )}
          <Button onClick={() => setCreating(true)}>{t('staff_catalog.create')}</Button>
        </>
      }
    >
      <section
        aria-label={t('staff_catalog.bulk.label')}
        className="flex flex-wrap items-center gap-2 rounded-xl border border-slate-200 bg-slate-50 px-4 py-3 text-sm"
      >
        <span aria-live="polite" className="mr-2 text-slate-700">
          {t('staff_catalog.bulk.selected', { count: selected.size })}
        </span>
        {(Object.keys(BULK_CHANGES) as Bulk[]).map((action) => (
          <Button
            key={action}
            variant="secondary"
            disabled={selected.size === 0 || (busy !== undefined && busy !== action)}
            loading={busy === action}
            onClick={() => bulk(action)}
          >
            {t(`staff_catalog.bulk.${action}`)}
          </Button>
        ))}
        {selected.size > 0 && (
          <Button variant="ghost" onClick={() => setSelected(new Set())}>
            {t('staff_catalog.bulk.clear')}
          </Button>
        )}
      </section>
      <ListPage
        endpoint={productEndpoints.list}
        caption={title}
        columns={columns}
        rowKey={(product) => product.product_id}
        filters={filters}
        fixed={fixed}
        searchLabel={t('staff_catalog.search')}
        empty={{ title: t('staff_catalog.empty'), text: t('staff_catalog.empty_text') }}
      />
      <CreateProductDialog open={creating} onOpenChange={setCreating} screenKey={screenKey} />
    </AdminPage>
  );
}

/** One screen per route of the table (app/routes/screens.ts picks its own). */
export const ProductsPages: Record<ProductsScreenKey, () => React.JSX.Element> = {
  stripe: () => <ProductsPage screenKey="stripe" />,
  paypal: () => <ProductsPage screenKey="paypal" />,
  iap: () => <ProductsPage screenKey="iap" />,
  cryptomus: () => <ProductsPage screenKey="cryptomus" />,
  'addons-modules': () => <ProductsPage screenKey="addons-modules" />,
  'addons-products': () => <ProductsPage screenKey="addons-products" />,
};

function ProductsPage({ screenKey }: { screenKey: ProductsScreenKey }) {
  // The page changes the query cache itself (bulk actions), outside the frame that provides it.
  return (
    <QueryProvider>
      <ProductsScreen screenKey={screenKey} />
    </QueryProvider>
  );
}
