import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { type AdminCouponDetail, couponEndpoints } from '#shared/contracts/admin/coupons.ts';
import { failureMessage } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { RouteLink } from '../../../layout/route-link.tsx';
import { pathFor } from '../../../routes/match-route.ts';
import { Button } from '../../../ui/button.tsx';
import { confirm } from '../../../ui/confirm.ts';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { AdminPage } from '../kit/admin-page.tsx';
import { formatDateTime } from '../kit/format.ts';
import { CouponForm } from './coupon-form.tsx';
import { CouponRedemptions } from './coupon-redemptions.tsx';
import { CouponStateBadge } from './coupon-state.tsx';
import { couponLink, discountText, durationText } from './coupon-terms.ts';

const couponKey = (id: number) => ['admin', couponEndpoints.view.url, id] as const;

/** §2 /admin/coupons/{coupon_id}: the coupon's terms to change, its link, its redemptions. */
export function CouponPage() {
  // The page reads the query cache itself, outside the frame that provides it.
  return (
    <QueryProvider>
      <Coupon />
    </QueryProvider>
  );
}

function Coupon() {
  const { t } = useTranslation();
  const id = Number(useParams().coupon_id);
  const query = useQuery({
    queryKey: couponKey(id),
    queryFn: ({ signal }) => call(couponEndpoints.view, { query: { coupon_id: id } }, { signal }),
  });
  const back = (
    <RouteLink name="admin.coupons.overview" className="text-sm text-brand-700 hover:underline">
      ← {t('staff_coupons.back')}
    </RouteLink>
  );
  const title = t('staff.route_titles.admin_coupons_view');
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
        <EmptyState title={t('staff.kit.load_failed')} text={t(failureMessage(query.error))} />
      </AdminPage>
    );
  }
  const { coupon } = query.data;
  return (
    <AdminPage
      title={<span className="font-mono">{coupon.code}</span>}
      before={back}
      actions={<CouponStateBadge state={coupon.state} />}
    >
      <CouponSummary coupon={coupon} />
      {coupon.state === 'deleted' ? (
        <EmptyState
          title={t('staff_coupons.deleted_title')}
          text={t('staff_coupons.deleted_text')}
        />
      ) : (
        <CouponEditor coupon={coupon} />
      )}
      <CouponRedemptions couponId={coupon.coupon_id} />
    </AdminPage>
  );
}

function CouponSummary({ coupon }: { coupon: AdminCouponDetail }) {
  const { t } = useTranslation();
  const lang = useLang();
  const facts: [string, string][] = [
    [
      t('staff_coupons.fields.discount'),
      `${discountText(coupon, lang)} · ${durationText(coupon, t)}`,
    ],
    [
      t('staff_coupons.fields.times_redeemed'),
      coupon.max_redemptions === null
        ? String(coupon.times_redeemed)
        : `${coupon.times_redeemed} / ${coupon.max_redemptions}`,
    ],
    [t('staff_coupons.fields.redemptions_count'), String(coupon.redemptions_count)],
    [
      t('staff_coupons.fields.expires_at'),
      coupon.expires_at ? formatDateTime(coupon.expires_at, lang) : t('staff_coupons.never'),
    ],
    [t('staff_coupons.fields.created_at'), formatDateTime(coupon.created_at, lang)],
  ];
  return (
    <Panel id="coupon-summary" title={coupon.name}>
      <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt className="text-slate-500">{label}</dt>
            <dd className="font-medium text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      {coupon.preapplied && coupon.state !== 'deleted' && (
        <div className="mt-4">
          <p className="text-sm text-slate-500">{t('staff_coupons.fields.link')}</p>
          <code className="block text-xs break-all text-slate-700" data-testid="coupon-link">
            {couponLink(window.location.origin, coupon.code)}
          </code>
        </div>
      )}
    </Panel>
  );
}

function CouponEditor({ coupon }: { coupon: AdminCouponDetail }) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const refreshLists = () =>
    queryClient.invalidateQueries({ queryKey: ['admin', couponEndpoints.list.url] });
  const remove = () =>
    confirm({
      title: t('staff_coupons.delete_title', { code: coupon.code }),
      text: t('staff_coupons.delete_text'),
      icon: 'danger',
      actionName: 'coupon-delete',
      yes: { label: t('staff_coupons.delete'), variant: 'danger' },
      onConfirm: async () => {
        await call(couponEndpoints.delete, { body: { coupon_id: coupon.coupon_id } });
        notify.success('staff_coupons.done.deleted', { values: { code: coupon.code } });
        await queryClient.invalidateQueries({ queryKey: couponKey(coupon.coupon_id) });
        await refreshLists();
        await navigate(pathFor('admin.coupons.overview', lang));
      },
    });
  return (
    <Panel
      id="coupon-edit"
      title={t('staff_coupons.edit_title')}
      description={coupon.terms_locked ? t('staff_coupons.form.locked_text') : undefined}
      actions={
        <Button variant="danger" onClick={() => void remove()}>
          {t('staff_coupons.delete')}
        </Button>
      }
    >
      <div className="mt-4">
        <CouponForm
          // A saved coupon starts the form again from what the server kept.
          key={JSON.stringify(coupon)}
          coupon={coupon}
          submitLabel={t('staff.kit.save')}
          onSubmit={async (fields) => {
            const answer = await call(couponEndpoints.update, {
              body: { ...fields, coupon_id: coupon.coupon_id },
            });
            queryClient.setQueryData(couponKey(coupon.coupon_id), answer);
            notify.success('staff_coupons.done.updated', { values: { code: answer.coupon.code } });
            await refreshLists();
          }}
        />
      </div>
    </Panel>
  );
}
