import { useTranslation } from 'react-i18next';
import type { ServiceView } from '#shared/contracts/billing.ts';
import { SERVICE_IDS, type ServiceId } from '#shared/subscription/actions.ts';

/** The provider a redirect checkout hops to, by §9 service id (names are not translated). */
export const PROVIDER_NAMES: Record<ServiceId, string> = {
  [SERVICE_IDS.card]: 'Stripe',
  [SERVICE_IDS.paypal]: 'PayPal',
  [SERVICE_IDS.inAppPurchase]: 'App Store',
  [SERVICE_IDS.bonus]: 'VPN',
  [SERVICE_IDS.crypto]: 'Cryptomus',
};

export interface PaymentMethodChoiceProps {
  services: readonly ServiceView[];
  value: ServiceId | undefined;
  onChange: (serviceId: ServiceId) => void;
  disabled?: boolean;
}

/** The enabled payment services as one radio group (arrow keys move between them). */
export function PaymentMethodChoice({
  services,
  value,
  onChange,
  disabled,
}: PaymentMethodChoiceProps) {
  const { t } = useTranslation();
  return (
    <fieldset className="min-w-0">
      <legend className="mb-3 text-base font-semibold text-slate-900">
        {t('order.payment_legend')}
      </legend>
      <div className="flex flex-wrap gap-2" data-testid="payment-methods">
        {services.map((service) => {
          const checked = service.service_id === value;
          return (
            <label
              key={service.service_id}
              className={`flex min-h-10 cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-500 ${checked ? 'border-brand-500 bg-brand-50 text-brand-700' : 'border-[#dfe1e6] bg-white text-slate-800 hover:bg-slate-50'}`}
            >
              <input
                type="radio"
                name="payment-method"
                value={service.service_id}
                checked={checked}
                disabled={disabled}
                onChange={() => onChange(service.service_id)}
                className="size-4 accent-brand-500"
              />
              {t(`order.method.${service.payment_method_type}`)}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
