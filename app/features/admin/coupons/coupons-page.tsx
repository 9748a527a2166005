import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type AdminCoupon,
  COUPON_STATES,
  type CouponMassUpdateRequest,
  couponEndpoints,
  DISCOUNT_TYPES,
} from '#shared/contracts/admin/coupons.ts';
import { call } from '../../../api/client.ts';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { notify } from '../../../ui/toast.tsx';
import { useBusyAction } from '../../../ui/use-busy-action.ts';
import { useLang } from '../../auth/use-lang.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import type { Column } from '../kit/data-table.tsx';
import type { ListFilter } from '../kit/list-filters.tsx';
import { ListPage } from '../kit/list-page.tsx';
import { couponColumns } from './coupon-columns.tsx';
import { CouponsTabs } from './coupons-tabs.tsx';
import { CreateCouponDialog } from './create-coupon-dialog.tsx';

const FILTERS: readonly ListFilter[] = [
  {
    name: 'state',
    label: 'staff_coupons.fields.state',
    options: COUPON_STATES.map((state) => ({
      value: state,
      label: `staff_coupons.states.${state}`,
    })),
  },
  {
    name: 'preapplied',
    label: 'staff_coupons.fields.preapplied',
    options: [
      { value: 'true', label: 'staff.kit.yes' },
      { value: 'false', label: 'staff.kit.no' },
    ],
  },
  {
    name: 'discount_type',
    label: 'staff_coupons.fields.discount_type',
    options: DISCOUNT_TYPES.map((type) => ({
      value: type,
      label: `staff_coupons.discount_types.${type}`,
    })),
  },
];

type MassAction = 'preapply' | 'unpreapply' | 'delete';

/** §2 /admin/coupons/overview: every coupon, searched and filtered; create; change many. */
export function CouponsPage() {
  // The page reads the query cache itself, outside the frame that provides it.
  return (
    <QueryProvider>
      <Coupons />
    </QueryProvider>
  );
}

function Coupons() {
  const { t } = useTranslation();
  const lang = useLang();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const { busy, run } = useBusyAction<MassAction>();
  const toggle = (id: number) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const pick: Column<AdminCoupon> = {
    key: 'pick',
    header: 'staff_coupons.mass.choose',
    className: 'w-10',
    cell: (coupon) =>
      coupon.state === 'deleted' ? null : (
        <input
          type="checkbox"
          className="size-4 accent-brand-500"
          checked={chosen.has(coupon.coupon_id)}
          onChange={() => toggle(coupon.coupon_id)}
          aria-label={t('staff_coupons.mass.choose_one', { code: coupon.code })}
        />
      ),
  };

  const apply = async (action: MassAction) => {
    const ids = [...chosen];
    const body: CouponMassUpdateRequest =
      action === 'delete'
        ? { action: 'delete', ids }
        : { action: 'preapplied', ids, preapplied: action === 'preapply' };
    const { updated } = await call(couponEndpoints.massUpdate, { body });
    notify.success('staff_coupons.done.mass_updated', { values: { count: updated } });
    setChosen(new Set());
    await queryClient.invalidateQueries({ queryKey: ['admin', couponEndpoints.list.url] });
  };
  const massDelete = () =>
    confirm({
      title: t('staff_coupons.mass.delete_title', { count: chosen.size }),
      text: t('staff_coupons.delete_text'),
      icon: 'danger',
      actionName: 'coupons-mass-delete',
      yes: { label: t('staff_coupons.delete'), variant: 'danger' },
      onConfirm: () => apply('delete'),
    });

  return (
    <AdminPage
      title={t('staff.route_titles.admin_coupons_overview')}
      actions={<Button onClick={() => setCreating(true)}>{t('staff_coupons.create')}</Button>}
    >
      <CouponsTabs />
      {chosen.size > 0 && (
        <section
          aria-label={t('staff_coupons.mass.label')}
          className="flex flex-wrap items-center gap-2 rounded-xl border border-slate-200 bg-slate-50 px-4 py-3"
        >
          <p className="mr-auto text-sm text-slate-700" aria-live="polite">
            {t('staff_coupons.mass.chosen', { count: chosen.size })}
          </p>
          <Button
            variant="secondary"
            loading={busy === 'preapply'}
            onClick={() => run('preapply', () => apply('preapply'))}
          >
            {t('staff_coupons.mass.preapply')}
          </Button>
          <Button
            variant="secondary"
            loading={busy === 'unpreapply'}
            onClick={() => run('unpreapply', () => apply('unpreapply'))}
          >
            {t('staff_coupons.mass.unpreapply')}
          </Button>
          <Button variant="danger" onClick={() => void massDelete()}>
            {t('staff_coupons.delete')}
          </Button>
          <Button variant="ghost" onClick={() => setChosen(new Set())}>
            {t('staff_coupons.mass.clear')}
          </Button>
        </section>
      )}
      <ListPage
        endpoint={couponEndpoints.list}
        caption={t('staff.route_titles.admin_coupons_overview')}
        columns={[pick, ...couponColumns(t, lang)]}
        rowKey={(coupon) => coupon.coupon_id}
        filters={FILTERS}
        searchLabel={t('staff_coupons.search')}
        empty={{ title: t('staff_coupons.empty'), text: t('staff_coupons.empty_text') }}
      />
      <CreateCouponDialog open={creating} onOpenChange={setCreating} />
    </AdminPage>
  );
}
