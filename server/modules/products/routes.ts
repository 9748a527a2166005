import { productEndpoints as e } from '#shared/contracts/admin/products.ts';
import { type Route, route } from '../../http/endpoint-routes.ts';
import type { App } from '../../http/types.ts';
import { mergeProducts } from './product-merge.ts';
import {
  includableProducts,
  listProducts,
  productsIn,
  servicesOverview,
  viewProduct,
} from './products-query.ts';
import { ProductsService } from './products-service.ts';

/**
 * §2 /admin/payment-gateways/{gateway}/products and the addons, §7 dashboard /products,
 * /services, /includable-products: admin only, while the billing flag is on.
 */
export function productRoutes(app: App): Route[] {
  // billing-plugin decorates the app with the order page's catalog cache.
  const deps = { db: app.db, catalog: app.catalog };
  const service = new ProductsService(deps);

  return [
    route(e.list, ({ query }) => listProducts(app.db, query)),
    route(e.services, async () => ({ items: await servicesOverview(app.db, app.payments) })),
    route(e.includable, async ({ query }) => ({
      items: await includableProducts(app.db, query),
    })),
    route(e.view, async ({ query }) => ({ product: await viewProduct(app.db, query.product_id) })),
    route(e.getIn, async ({ query }) => ({ items: await productsIn(app.db, query.ids) })),
    route(e.create, async ({ request, auth, body }) => ({
      product: await service.create({ request, actor: auth }, body),
    })),
    route(e.update, async ({ request, auth, body }) => ({
      product: await service.update({ request, actor: auth }, body),
    })),
    route(e.delete, async ({ request, auth, body }) => {
      await service.delete({ request, actor: auth }, body.product_id);
      return { success: true } as const;
    }),
    route(e.merge, async ({ request, auth, body }) => ({
      product: await mergeProducts(
        deps,
        { request, actor: auth },
        body.from_product_id,
        body.into_product_id,
      ),
    })),
    route(e.massUpdate, async ({ request, auth, body }) => ({
      items: await service.massUpdate({ request, actor: auth }, body.items),
    })),
    route(e.includesUpdate, async ({ request, auth, body }) => ({
      product: await service.setIncludes(
        { request, actor: auth },
        body.product_id,
        body.includable_product_ids,
      ),
    })),
  ];
}
