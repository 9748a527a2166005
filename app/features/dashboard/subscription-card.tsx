import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SubscriptionStatus } from '#shared/subscription/actions.ts';
import { hasMembership } from '#shared/subscription/actions.ts';
import { type PeriodLine, periodLine } from '#shared/subscription/period-line.ts';
import { LinkButton } from '../../layout/link-button.tsx';
import { ensureSubscription } from '../../session/current-subscription.ts';
import { useSession } from '../../session/session-store.ts';
import { Panel } from '../../ui/panel.tsx';
import { useLang } from '../auth/use-lang.ts';
import { CardError, CardSkeleton } from './card-states.tsx';
import { useSubscriptionDetail } from './dashboard-api.ts';
import { formatDashboardDate } from './dashboard-format.ts';
import { NEXT_ACTION_ROUTES, type NextAction, nextAction } from './next-action.ts';

const STATUS_KEYS: Record<SubscriptionStatus, string> = {
  active: 'dashboard.subscription.status.active',
  paused: 'dashboard.subscription.status.paused',
  canceled: 'dashboard.subscription.status.canceled',
  expired: 'dashboard.subscription.status.expired',
  refunded: 'dashboard.subscription.status.refunded',
  on_hold: 'dashboard.subscription.status.on_hold',
  failed: 'dashboard.subscription.status.failed',
};

const STATUS_TONES: Record<SubscriptionStatus, string> = {
  active: 'bg-emerald-100 text-emerald-800',
  paused: 'bg-slate-100 text-slate-700',
  canceled: 'bg-amber-100 text-amber-800',
  expired: 'bg-slate-100 text-slate-700',
  refunded: 'bg-slate-100 text-slate-700',
  on_hold: 'bg-red-100 text-red-800',
  failed: 'bg-red-100 text-red-800',
};

const DATE_KEYS: Record<Exclude<PeriodLine['kind'], 'none'>, string> = {
  renews: 'dashboard.subscription.date.renews',
  ends: 'dashboard.subscription.date.ends',
  ended: 'dashboard.subscription.date.ended',
  access_until: 'dashboard.subscription.date.access_until',
  paused: 'dashboard.subscription.date.paused',
};

const ACTION_KEYS: Record<NextAction, string> = {
  order: 'dashboard.subscription.actions.order',
  fix_payment_method: 'dashboard.subscription.actions.fix_payment_method',
  reactivate: 'dashboard.subscription.actions.reactivate',
  bonus_upgrade: 'dashboard.subscription.actions.bonus_upgrade',
  upgrade: 'dashboard.subscription.actions.upgrade',
};

/**
 * §4 the subscription: status, renewal or end date, and the next action. Whether one exists
 * and what it offers come from the session's current subscription (as menus and guards
 * read it); the plan's name and dates from billing's detail.
 */
export function SubscriptionCard() {
  const { t } = useTranslation();
  const state = useSession((session) => session.subscription);
  const user = useSession((session) => session.user);
  const [failed, setFailed] = useState<unknown>();
  const load = useCallback(() => {
    setFailed(undefined);
    ensureSubscription().catch(setFailed);
  }, []);
  useEffect(() => {
    // The dashboard's route does not wait for it (the menus ask for the same, once).
    if (user && !state) load();
  }, [user, state, load]);
  const current = state?.current ?? null;
  const exists = hasMembership(current);
  const detail = useSubscriptionDetail(exists);
  return (
    <Panel id="dashboard-subscription" title={t('dashboard.subscription.title')}>
      {!state && failed !== undefined ? (
        <CardError error={failed} onRetry={load} />
      ) : !state ? (
        <CardSkeleton lines={3} />
      ) : !exists ? (
        <NoPlan />
      ) : detail.isPending ? (
        <CardSkeleton lines={3} />
      ) : detail.isError ? (
        <CardError error={detail.error} onRetry={() => detail.refetch()} />
      ) : (
        <Plan
          name={detail.data.plan.name}
          status={current?.status ?? detail.data.status}
          date={periodLine(detail.data)}
          action={nextAction(current, state.lastInvoiceFinalizing)}
        />
      )}
    </Panel>
  );
}

/** The empty state: a new customer has nothing to use yet; the way on is the order page. */
function NoPlan() {
  const { t } = useTranslation();
  return (
    <div data-testid="dashboard-no-plan">
      <p className="font-medium text-slate-900">{t('dashboard.subscription.none_title')}</p>
      <p className="mt-1 text-sm text-slate-600">{t('dashboard.subscription.none_text')}</p>
      <LinkButton name={NEXT_ACTION_ROUTES.order} variant="primary" className="mt-4">
        {t(ACTION_KEYS.order)}
      </LinkButton>
    </div>
  );
}

function Plan({
  name,
  status,
  date,
  action,
}: {
  name: string;
  status: SubscriptionStatus;
  date: PeriodLine;
  action: NextAction | null;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <div>
      <div className="flex flex-wrap items-center gap-2" aria-live="polite">
        <p
          className="text-lg font-semibold break-words text-slate-900"
          data-testid="dashboard-plan"
        >
          {name}
        </p>
        <span
          data-testid="dashboard-plan-status"
          className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_TONES[status]}`}
        >
          {t(STATUS_KEYS[status])}
        </span>
      </div>
      {date.kind !== 'none' && (
        <p className="mt-1 text-sm text-slate-700" data-testid="dashboard-plan-date">
          {t(DATE_KEYS[date.kind], { date: formatDashboardDate(date.date, lang) })}
        </p>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        {action && (
          <LinkButton name={NEXT_ACTION_ROUTES[action]} variant="primary">
            {t(ACTION_KEYS[action])}
          </LinkButton>
        )}
        <LinkButton name="billing.membership2">{t('dashboard.subscription.manage')}</LinkButton>
      </div>
    </div>
  );
}
