import { describe, expect, it } from 'vitest';
import type { AdminProduct } from '#shared/contracts/admin/products.ts';
import { adminProduct } from '../products/admin-product-test-data.ts';
import {
  changesOf,
  groupProducts,
  initialDraft,
  moveItem,
  newSorts,
  parseMajor,
  rowProblem,
} from './plan-draft.ts';
import { planTab } from './plan-tabs.ts';

const product = (id: number, overrides: Partial<AdminProduct> = {}): AdminProduct =>
  adminProduct(id, { amount: 1000, monthly_amount: 1000, sort: id * 5, ...overrides });

describe('manage plans draft', () => {
  it('groups by service in the tab’s order and by sort, keeping only bundles on that tab', () => {
    const items = [
      product(1, { service_id: 2, sort: 30 }),
      product(2, { service_id: 1, sort: 20, includable_product_id: [9] }),
      product(3, { service_id: 1, sort: 10 }),
    ];
    expect(
      groupProducts(items, planTab('addons')).map((group) => [
        group.serviceId,
        group.products.map((item) => item.product_id),
      ]),
    ).toEqual([
      [1, [3, 2]],
      [2, [1]],
    ]);
    expect(
      groupProducts(items, planTab('merged-addons')).map((group) =>
        group.products.map((item) => item.product_id),
      ),
    ).toEqual([[2]]);
  });

  it('numbers a whole list 10, 20, 30 and a part of one in the places it held', () => {
    const items = [product(1, { sort: 40 }), product(2, { sort: 40 }), product(3, { sort: 90 })];
    expect([...newSorts(items, [3, 1, 2], true)]).toEqual([
      [3, 10],
      [1, 20],
      [2, 30],
    ]);
    expect([...newSorts(items, [3, 1, 2], false)]).toEqual([
      [3, 40],
      [1, 41],
      [2, 90],
    ]);
  });

  it('sends only what changed: new sorts once reordered, flags and the old price', () => {
    const items = [
      product(1, { sort: 10, as_most_selected: true }),
      product(2, { sort: 20 }),
      product(3, { sort: 30 }),
    ];
    const groups = groupProducts(items, planTab('stripe'));
    const draft = initialDraft(groups);
    expect(changesOf(groups, draft, true)).toEqual([]);
    const row = (id: number) => draft.rows[id] ?? expect.fail(`no row ${id}`);
    const rows = {
      ...draft.rows,
      1: { ...row(1), as_most_selected: false },
      3: { ...row(3), as_most_selected: true, discounted_badge: true, amount_old: '19.99' },
    };
    const order = [moveItem(draft.order[0] ?? [], 2, 0)];
    expect(changesOf(groups, { order, rows }, true)).toEqual([
      { product_id: 3, sort: 10, as_most_selected: true, discounted_badge: true, amount_old: 1999 },
      { product_id: 1, sort: 20, as_most_selected: false },
      { product_id: 2, sort: 30 },
    ]);
  });

  it('reads prices as typed and refuses a badge without a higher old price', () => {
    expect(parseMajor('71.88', 'USD')).toBe(7188);
    expect(parseMajor('71,8', 'EUR')).toBe(7180);
    expect(parseMajor(' ', 'USD')).toBeNull();
    expect(parseMajor('7.1.8', 'USD')).toBeUndefined();
    expect(parseMajor('1.5', 'JPY')).toBeUndefined();
    const plan = product(1, { amount: 1000 });
    const row = { as_most_selected: false, as_monthly_rate: false, discounted_badge: true };
    expect(rowProblem(plan, { ...row, amount_old: '' })).toBe('staff_plans.badge_needs_old_price');
    expect(rowProblem(plan, { ...row, amount_old: '10.00' })).toBe(
      'staff_plans.badge_needs_old_price',
    );
    expect(rowProblem(plan, { ...row, amount_old: '12.00' })).toBeUndefined();
    expect(rowProblem(plan, { ...row, amount_old: 'abc' })).toBe('staff_plans.amount_old_invalid');
  });
});
