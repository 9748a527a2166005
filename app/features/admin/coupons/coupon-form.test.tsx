import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type AdminCouponDetail,
  COUPON_MESSAGES,
  couponEndpoints,
} from '#shared/contracts/admin/coupons.ts';
import { productEndpoints } from '#shared/contracts/admin/products.ts';
import { renderApp, testUser } from '../../../test/render-app.tsx';
import { jsonResponse, stubFetch } from '../../../test/stub-fetch.ts';

// The coupon form as staff use it: money typed in major units and sent in minor ones, the
// shared schema's messages under their fields, and a redeemed coupon's terms kept.
const admin = testUser({ id: 9, role: 'ADMIN', name: 'Ada Admin' });
const EMPTY_LIST = { items: [], controls: { page: 1, per_page: 20, total: 0, last_page: 1 } };

const redeemed: AdminCouponDetail = {
  coupon_id: 5,
  code: 'SPRING25',
  name: 'Spring',
  discount_type: 'percent',
  percent_off: 25,
  amount_off: null,
  currency: null,
  duration: 'once',
  duration_in_months: null,
  expires_at: null,
  max_redemptions: 10,
  times_redeemed: 2,
  preapplied: false,
  state: 'active',
  product_ids: [],
  deleted_at: null,
  created_at: '2026-11-01T10:00:00.000Z',
  products: [],
  redemptions_count: 2,
  terms_locked: true,
};

afterEach(() => vi.unstubAllGlobals());

describe('coupon form', () => {
  it('sends an amount in minor units, and checks the fields before sending', async () => {
    const sent: unknown[] = [];
    stubFetch({
      [couponEndpoints.list.url]: () => jsonResponse(200, EMPTY_LIST),
      [productEndpoints.list.url]: () => jsonResponse(200, EMPTY_LIST),
      [couponEndpoints.create.url]: async (request) => {
        sent.push(await request.json());
        return jsonResponse(422, {
          code: 'validation_failed',
          errors_validation: { code: [COUPON_MESSAGES.codeTaken] },
        });
      },
    });
    const { screen } = await renderApp('/en/admin/coupons/overview', admin);
    await screen.getByRole('button', { name: 'Create coupon' }).click();
    const dialog = screen.getByRole('dialog', { name: 'New coupon' });
    await dialog.getByLabelText('Code').fill('TAKEN5');
    await dialog.getByLabelText('Name').fill('Five off');
    await dialog.getByLabelText('Discount type').selectOptions('Fixed amount');
    await dialog.getByRole('button', { name: 'Create coupon' }).click();
    await expect
      .element(dialog.getByLabelText('Amount off'))
      .toHaveAccessibleDescription('This field is required.');
    expect(sent).toEqual([]);

    await dialog.getByLabelText('Amount off').fill('5.5');
    await dialog.getByLabelText('Currency').selectOptions('EUR');
    await dialog.getByRole('button', { name: 'Create coupon' }).click();
    await expect
      .element(dialog.getByLabelText('Code'))
      .toHaveAccessibleDescription('Another coupon has this code.');
    expect(sent).toEqual([
      expect.objectContaining({
        code: 'TAKEN5',
        discount_type: 'amount',
        percent_off: null,
        amount_off: 550,
        currency: 'EUR',
        duration: 'once',
        max_redemptions: null,
        product_ids: [],
      }),
    ]);
  });

  it('keeps a redeemed coupon’s code and discount, and saves what may change', async () => {
    const sent: Record<string, unknown>[] = [];
    stubFetch({
      [couponEndpoints.view.url]: () => jsonResponse(200, { coupon: redeemed }),
      [couponEndpoints.redemptions.url]: () => jsonResponse(200, EMPTY_LIST),
      [couponEndpoints.list.url]: () => jsonResponse(200, EMPTY_LIST),
      [productEndpoints.list.url]: () => jsonResponse(200, EMPTY_LIST),
      [couponEndpoints.update.url]: async (request) => {
        const body = (await request.json()) as Record<string, unknown>;
        sent.push(body);
        return jsonResponse(200, { coupon: { ...redeemed, name: body.name } });
      },
    });
    const { screen } = await renderApp('/en/admin/coupons/5', admin);
    const form = screen.getByRole('form', { name: 'Save' });
    await expect.element(form.getByLabelText('Code')).toBeDisabled();
    await expect.element(form.getByLabelText('Percent off')).toBeDisabled();
    await expect.element(form.getByLabelText('Name')).toBeEnabled();
    await form.getByLabelText('Name').fill('Spring, renamed');
    await form.getByLabelText('Redemption limit').fill('20');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      coupon_id: 5,
      code: 'SPRING25',
      name: 'Spring, renamed',
      discount_type: 'percent',
      percent_off: 25,
      duration: 'once',
      max_redemptions: 20,
    });
  });
});
