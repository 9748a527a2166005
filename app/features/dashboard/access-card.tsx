import { useTranslation } from 'react-i18next';
import type { EntitlementSource } from '#shared/billing/billing-values.ts';
import type { AccessSource, DashboardResponse } from '#shared/contracts/dashboard.ts';
import type { Lang } from '#shared/locales.ts';
import { LinkButton } from '../../layout/link-button.tsx';
import { useAppConfig } from '../../lib/app-config-context.ts';
import { Panel } from '../../ui/panel.tsx';
import { useLang } from '../auth/use-lang.ts';
import { CardError, CardSkeleton } from './card-states.tsx';
import { useDashboard } from './dashboard-api.ts';
import { formatDashboardDate } from './dashboard-format.ts';

const SOURCE_KEYS: Record<EntitlementSource, string> = {
  subscription: 'dashboard.access.source.subscription',
  bonus: 'dashboard.access.source.bonus',
  family: 'dashboard.access.source.family',
  manual: 'dashboard.access.source.manual',
};

/**
 * May this customer use the VPN, until when, and why: the entitlement ledger's answer (own
 * plan, a family plan and whose, bonus days, a grant from support).
 */
export function AccessCard() {
  const { t } = useTranslation();
  const dashboard = useDashboard();
  return (
    <Panel id="dashboard-access" title={t('dashboard.access.title')}>
      {dashboard.isPending ? (
        <CardSkeleton lines={2} />
      ) : dashboard.isError ? (
        <CardError error={dashboard.error} onRetry={() => dashboard.refetch()} />
      ) : (
        <Access access={dashboard.data.access} />
      )}
    </Panel>
  );
}

function sourceText(
  t: (key: string, values?: Record<string, string>) => string,
  source: AccessSource,
  lang: Lang,
): string {
  const label = t(SOURCE_KEYS[source.source], { owner: source.from ?? '' });
  if (!source.until) return label;
  return t('dashboard.access.source_until', {
    source: label,
    date: formatDashboardDate(source.until, lang),
  });
}

function Access({ access }: { access: DashboardResponse['access'] }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { features } = useAppConfig();
  return (
    <div aria-live="polite" data-testid="dashboard-access">
      <p className="flex flex-wrap items-center gap-2">
        <span
          aria-hidden="true"
          className={`inline-block size-2.5 rounded-full ${access.active ? 'bg-emerald-500' : 'bg-slate-400'}`}
        />
        <span className="text-lg font-semibold text-slate-900">
          {access.active ? t('dashboard.access.active') : t('dashboard.access.none')}
        </span>
      </p>
      {access.active && (
        <p className="mt-1 text-sm text-slate-700">
          {access.until
            ? t('dashboard.access.until', { date: formatDashboardDate(access.until, lang) })
            : t('dashboard.access.no_end')}
        </p>
      )}
      {access.sources.length > 0 && (
        <div className="mt-4">
          <h3 className="text-sm font-semibold text-slate-900">
            {t('dashboard.access.sources_title')}
          </h3>
          <ul className="mt-2 flex flex-col gap-1 text-sm text-slate-700">
            {access.sources.map((source) => (
              <li key={`${source.source}-${source.from ?? ''}`}>{sourceText(t, source, lang)}</li>
            ))}
          </ul>
        </div>
      )}
      {!access.active && (
        <>
          <p className="mt-1 text-sm text-slate-600">{t('dashboard.access.none_text')}</p>
          {features.includes('billing') && (
            <LinkButton name="billing.order2" className="mt-4">
              {t('dashboard.access.get_access')}
            </LinkButton>
          )}
        </>
      )}
    </div>
  );
}
