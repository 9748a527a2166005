import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AdminProduct, productEndpoints } from '#shared/contracts/admin/products.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';
import { adminProduct } from './admin-product-test-data.ts';

// A product's page: the WireGuard device limit its plan allows, shown, changed and checked
// (1–1000) by the shared schema before anything is sent.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });
const EMPTY_LIST = { items: [], controls: { page: 1, per_page: 20, total: 0, last_page: 1 } };

const PLAN: AdminProduct = adminProduct(5, { name: '1 month', sort: 10 });

afterEach(() => vi.unstubAllGlobals());

describe('product device limit', () => {
  it('shows the plan’s device limit, refuses one out of range, and saves a new one', async () => {
    let product = PLAN;
    const sent: Record<string, unknown>[] = [];
    stubFetch({
      [productEndpoints.view.url]: () => jsonResponse(200, { product }),
      [productEndpoints.list.url]: () => jsonResponse(200, EMPTY_LIST),
      [productEndpoints.includable.url]: () => jsonResponse(200, { items: [] }),
      [productEndpoints.update.url]: async (request) => {
        const body = (await request.json()) as Record<string, unknown>;
        sent.push(body);
        product = {
          ...product,
          device_limit: body.device_limit as number,
          updated_at: new Date().toISOString(),
        };
        return jsonResponse(200, { product });
      },
    });
    const { screen } = await renderApp('/en/admin/payment-gateways/stripe/products/5', admin);
    await expect.element(screen.getByTestId('product-device-limit')).toHaveTextContent('10');
    const form = screen.getByRole('form', { name: 'Save' });
    const field = form.getByLabelText('Devices allowed');
    await expect.element(field).toHaveValue('10');
    await field.fill('0');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.element(field).toHaveAccessibleDescription('This value is not valid.');
    expect(sent).toEqual([]);

    await field.fill('25');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.element(screen.getByTestId('product-device-limit')).toHaveTextContent('25');
    expect(sent).toEqual([expect.objectContaining({ product_id: 5, device_limit: 25 })]);
  });
});
