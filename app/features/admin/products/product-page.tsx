import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { type AdminProduct, productEndpoints } from '#shared/contracts/admin/products.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { RouteLink } from '../../../layout/route-link.tsx';
import { pathFor } from '../../../routes/match-route.ts';
import { titleKey } from '../../../routes/route-titles.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useBusyAction } from '../../../ui/use-busy-action.ts';
import { useLang } from '../../auth/use-lang.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import { formatDateTime } from '../kit/format.ts';
import { MergeProductDialog } from './merge-product-dialog.tsx';
import { ProductForm } from './product-form.tsx';
import { ProductIncludesPanel } from './product-includes-panel.tsx';
import { DETAIL_SCREENS, type GatewayKey, PRODUCTS_SCREENS } from './product-screens.ts';
import { ProductState } from './product-state.tsx';
import { useProduct } from './use-product.ts';

type DetailKey = GatewayKey | 'addons';

/**
 * §2 /admin/payment-gateways/{gateway}/products/{product_id} and the addons' product: every
 * field, the includable addons of a plan, hide and disable, merge into another, delete.
 */
function ProductPage({ detailKey }: { detailKey: DetailKey }) {
  // The page reads the query cache itself, outside the frame that provides it.
  return (
    <QueryProvider>
      <Product detailKey={detailKey} />
    </QueryProvider>
  );
}

/** One screen per route of the table (app/routes/screens.ts picks its own). */
export const ProductPages: Record<DetailKey, () => React.JSX.Element> = {
  stripe: () => <ProductPage detailKey="stripe" />,
  paypal: () => <ProductPage detailKey="paypal" />,
  iap: () => <ProductPage detailKey="iap" />,
  cryptomus: () => <ProductPage detailKey="cryptomus" />,
  addons: () => <ProductPage detailKey="addons" />,
};

function Product({ detailKey }: { detailKey: DetailKey }) {
  const { t } = useTranslation();
  const id = Number(useParams().product_id);
  const screen = PRODUCTS_SCREENS[DETAIL_SCREENS[detailKey]];
  const { query, show } = useProduct(id);
  const back = (
    <RouteLink name={screen.route} className="text-sm text-brand-700 hover:underline">
      ← {t(titleKey(screen.route))}
    </RouteLink>
  );
  const title = t('staff_catalog.product_title');

  if (query.isPending) {
    return (
      <AdminPage title={title} before={back}>
        <LoadingBlock />
      </AdminPage>
    );
  }
  if (query.isError) {
    return (
      <AdminPage title={title} before={back}>
        <EmptyState
          title={t('staff.kit.load_failed')}
          text={t(failureMessage(query.error))}
          action={
            <Button variant="secondary" onClick={() => void query.refetch()}>
              {t('staff.kit.retry')}
            </Button>
          }
        />
      </AdminPage>
    );
  }
  const { product } = query.data;
  return (
    <AdminPage title={product.name} before={back} actions={<ProductState product={product} />}>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] [&>*]:min-w-0">
        <Panel id="product-fields" title={t('staff_catalog.fields_title')}>
          <ProductForm
            // A saved product starts the form afresh from what the server kept.
            key={product.updated_at}
            product={product}
            serviceId={product.service_id}
            submitLabel={t('staff.kit.save')}
            onSubmit={async (fields) => {
              const { service_id: _fixed, ...rest } = fields;
              const answer = await call(productEndpoints.update, {
                body: { ...rest, product_id: product.product_id },
              });
              notify.success('staff_catalog.done.saved');
              await show(answer.product);
            }}
          />
        </Panel>
        <div className="flex flex-col gap-6">
          <ProductActions product={product} detailKey={detailKey} onChanged={show} />
          {!product.additional && !product.includable && (
            <ProductIncludesPanel key={product.updated_at} product={product} onSaved={show} />
          )}
          <GatewayPrices product={product} />
        </div>
      </div>
    </AdminPage>
  );
}

function ProductActions(props: {
  product: AdminProduct;
  detailKey: DetailKey;
  onChanged: (product: AdminProduct) => Promise<void>;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const { product } = props;
  const screen = PRODUCTS_SCREENS[DETAIL_SCREENS[props.detailKey]];
  const { busy, run } = useBusyAction<'visible' | 'disabled'>();
  const [merging, setMerging] = useState(false);

  const toggle = (field: 'visible' | 'disabled') =>
    run(field, async () => {
      const answer = await call(productEndpoints.massUpdate, {
        body: { items: [{ product_id: product.product_id, [field]: !product[field] }] },
      });
      const saved = answer.items[0];
      if (!saved) return;
      notify.success(`staff_catalog.done.${field}_${saved[field] ? 'on' : 'off'}`);
      await props.onChanged(saved);
    });

  const remove = () =>
    confirm({
      title: t('staff_catalog.delete.title', { name: product.name }),
      text: t('staff_catalog.delete.text'),
      icon: 'danger',
      actionName: 'product-delete',
      yes: { label: t('staff_catalog.delete.confirm'), variant: 'danger' },
      onConfirm: async () => {
        await call(productEndpoints.delete, { body: { product_id: product.product_id } });
        notify.success('staff_catalog.done.deleted', { values: { name: product.name } });
        await navigate(pathFor(screen.route, lang));
      },
    });

  return (
    <Panel id="product-actions" title={t('staff_catalog.actions_title')}>
      <dl className="mb-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">{t('staff_catalog.columns.subscriptions')}</dt>
        <dd>{product.active_subscriptions}</dd>
        <dt className="text-slate-600">{t('staff_catalog.fields.device_limit')}</dt>
        <dd data-testid="product-device-limit">{product.device_limit}</dd>
        <dt className="text-slate-600">{t('staff_catalog.created_at')}</dt>
        <dd>{formatDateTime(product.created_at, lang)}</dd>
      </dl>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          loading={busy === 'visible'}
          disabled={busy === 'disabled'}
          onClick={() => toggle('visible')}
        >
          {t(product.visible ? 'staff_catalog.bulk.hide' : 'staff_catalog.bulk.show')}
        </Button>
        <Button
          variant="secondary"
          loading={busy === 'disabled'}
          disabled={busy === 'visible'}
          onClick={() => toggle('disabled')}
        >
          {t(product.disabled ? 'staff_catalog.bulk.enable' : 'staff_catalog.bulk.disable')}
        </Button>
        <Button variant="secondary" onClick={() => setMerging(true)}>
          {t('staff_catalog.merge.open')}
        </Button>
        <Button variant="danger" onClick={() => void remove()}>
          {t('staff_catalog.delete.open')}
        </Button>
      </div>
      {product.active_subscriptions > 0 && (
        <p className="mt-3 text-xs text-slate-600">
          {t('staff_catalog.delete.in_use_hint', { count: product.active_subscriptions })}
        </p>
      )}
      <MergeProductDialog
        product={product}
        open={merging}
        onOpenChange={setMerging}
        onMerged={async (into) => {
          notify.success('staff_catalog.done.merged', {
            values: { from: product.name, into: into.name },
          });
          await navigate(pathFor(screen.detail, lang, { product_id: String(into.product_id) }));
        }}
      />
    </Panel>
  );
}

/** The gateways' ids of this product, newest first (read-only: made on the next sale). */
function GatewayPrices({ product }: { product: AdminProduct }) {
  const { t } = useTranslation();
  return (
    <Panel
      id="product-gateway-prices"
      title={t('staff_catalog.gateway_prices.title')}
      description={t('staff_catalog.gateway_prices.text')}
    >
      {product.gateway_prices.length === 0 ? (
        <p className="text-sm text-slate-600">{t('staff_catalog.gateway_prices.none')}</p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm">
          {product.gateway_prices.map((price) => (
            <li key={`${price.gateway}:${price.price_ref}`}>
              <span className="font-medium">{price.gateway}</span>{' '}
              <code className="break-all text-slate-700">{price.price_ref}</code>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
