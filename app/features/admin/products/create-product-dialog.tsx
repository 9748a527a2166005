import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { productEndpoints } from '#shared/contracts/admin/products.ts';
import { call } from '../../../api/client.ts';
import { pathFor } from '../../../routes/match-route.ts';
import { Button } from '../../../ui/button.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { notify } from '../../../ui/toast.tsx';
import { useLang } from '../../auth/use-lang.ts';
import { ProductForm } from './product-form.tsx';
import { PRODUCTS_SCREENS, type ProductsScreenKey } from './product-screens.ts';

/** A new product of the screen's service (or, on the addons' screens, of one chosen). */
export function CreateProductDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  screenKey: ProductsScreenKey;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const screen = PRODUCTS_SCREENS[props.screenKey];
  return (
    <Modal
      open={props.open}
      onOpenChange={props.onOpenChange}
      size="lg"
      title={t('staff_catalog.create_title')}
      description={t('staff_catalog.create_text')}
    >
      <ProductForm
        serviceId={screen.serviceId ?? 1}
        chooseService={screen.serviceId === null}
        defaults={
          screen.kind === null
            ? undefined
            : { additional: true, includable: screen.kind === 'includable' }
        }
        submitLabel={t('staff_catalog.create')}
        extra={
          <Button variant="secondary" onClick={() => props.onOpenChange(false)}>
            {t('staff.kit.cancel')}
          </Button>
        }
        onSubmit={async (body) => {
          const { product } = await call(productEndpoints.create, { body });
          notify.success('staff_catalog.done.created', { values: { name: product.name } });
          await queryClient.invalidateQueries({ queryKey: ['admin', productEndpoints.list.url] });
          props.onOpenChange(false);
          await navigate(pathFor(screen.detail, lang, { product_id: String(product.product_id) }));
        }}
      />
    </Modal>
  );
}
