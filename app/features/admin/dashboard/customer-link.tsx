import { useTranslation } from 'react-i18next';
import { RouteLink } from '../../../layout/route-link.tsx';
import { useAppConfig } from '../../../lib/app-config-context.ts';

/** A customer's e-mail, linking to their page while the customers screens are on (§1 users). */
export function CustomerLink(props: { customer: { id: number; email: string } | null }) {
  const { t } = useTranslation();
  const users = useAppConfig().features.includes('users');
  if (!props.customer) return <>{t('staff_stats.dashboard.customer_gone')}</>;
  if (!users) return <>{props.customer.email}</>;
  return (
    <RouteLink
      name="admin.customers.view"
      params={{ id: String(props.customer.id) }}
      className="font-medium text-brand-700 hover:underline"
    >
      {props.customer.email}
    </RouteLink>
  );
}
