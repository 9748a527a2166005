import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { couponEndpoints } from '#shared/contracts/admin/coupons.ts';
import { call } from '../../../api/client.ts';
import { pathFor } from '../../../routes/match-route.ts';
import { Button } from '../../../ui/button.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { CouponForm } from './coupon-form.tsx';

/** A new coupon; once made, its page opens (its link, its redemptions). */
export function CreateCouponDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <Modal
      open={props.open}
      onOpenChange={props.onOpenChange}
      size="lg"
      title={t('staff_coupons.create_title')}
      description={t('staff_coupons.create_text')}
    >
      <CouponForm
        submitLabel={t('staff_coupons.create')}
        extra={
          <Button variant="secondary" onClick={() => props.onOpenChange(false)}>
            {t('staff.kit.cancel')}
          </Button>
        }
        onSubmit={async (body) => {
          const { coupon } = await call(couponEndpoints.create, { body });
          notify.success('staff_coupons.done.created', { values: { code: coupon.code } });
          await queryClient.invalidateQueries({ queryKey: ['admin', couponEndpoints.list.url] });
          props.onOpenChange(false);
          await navigate(
            pathFor('admin.coupons.view', lang, { coupon_id: String(coupon.coupon_id) }),
          );
        }}
      />
    </Modal>
  );
}
