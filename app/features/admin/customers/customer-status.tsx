import { useTranslation } from 'react-i18next';
import type { CustomerSummary } from '#shared/contracts/admin/customers.ts';

const TONES = {
  blocked: 'bg-red-100 text-red-800',
  deactivated: 'bg-amber-100 text-amber-800',
  unverified: 'bg-slate-100 text-slate-700',
  active: 'bg-emerald-100 text-emerald-800',
} as const;

/** What state the account is in, most serious first: blocked, deactivated, unverified. */
export function customerState(user: CustomerSummary): keyof typeof TONES {
  if (user.blocked) return 'blocked';
  if (user.delete_at) return 'deactivated';
  return user.activated ? 'active' : 'unverified';
}

export function CustomerStatus({ user }: { user: CustomerSummary }) {
  const { t } = useTranslation();
  const state = customerState(user);
  return (
    <span
      data-testid="customer-status"
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${TONES[state]}`}
    >
      {t(`staff.customers.state.${state}`)}
    </span>
  );
}
