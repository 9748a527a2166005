import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { RealGatewayName } from '#shared/billing/gateway-settings.ts';
import type { GatewaySettingsView } from '#shared/contracts/admin/payment-gateways.ts';
import { QueryProvider } from '../../../api/query-provider.tsx';
import { titleKey } from '../../../routes/route-titles.ts';
import { Button } from '../../../ui/button.tsx';
import { Panel } from '../../../ui/panel.tsx';
import { LoadingBlock } from '../../../ui/spinner.tsx';
import { notify } from '../../../ui/toast.tsx';
import { AdminPage } from '../kit/admin-page.tsx';
import { LoadFailed } from '../kit/load-failed.tsx';
import { type GatewayRouteKey, ROUTE_GATEWAYS } from './gateway-fields.ts';
import { GatewaySettingsForm } from './gateway-settings-form.tsx';
import { useGatewaySettings } from './use-gateway-settings.ts';

/**
 * §2 /admin/payment-gateways/{stripe|paypal|iap|cryptomus}/settings: whether the gateway
 * sells, where its keys come from, the webhook address to give the provider, and its keys.
 */
function GatewaySettingsPage({ routeKey }: { routeKey: GatewayRouteKey }) {
  // The page reads the query cache itself, outside the frame that provides it.
  return (
    <QueryProvider>
      <GatewaySettings routeKey={routeKey} />
    </QueryProvider>
  );
}

/** One screen per route of the table (app/routes/screens.ts picks its own). */
export const GatewaySettingsPages: Record<GatewayRouteKey, () => React.JSX.Element> = {
  stripe: () => <GatewaySettingsPage routeKey="stripe" />,
  paypal: () => <GatewaySettingsPage routeKey="paypal" />,
  iap: () => <GatewaySettingsPage routeKey="iap" />,
  cryptomus: () => <GatewaySettingsPage routeKey="cryptomus" />,
};

function GatewaySettings({ routeKey }: { routeKey: GatewayRouteKey }) {
  const { t } = useTranslation();
  const gateway = ROUTE_GATEWAYS[routeKey];
  const title = t(titleKey(`admin.payment-gateways.${routeKey}.settings`));
  const { query, show } = useGatewaySettings(gateway);

  if (query.isPending) {
    return (
      <AdminPage title={title}>
        <LoadingBlock />
      </AdminPage>
    );
  }
  if (query.isError || !query.data) {
    return (
      <AdminPage title={title}>
        <LoadFailed error={query.error} onRetry={() => void query.refetch()} />
      </AdminPage>
    );
  }
  const view = query.data;
  return (
    <AdminPage title={title}>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] [&>*]:min-w-0">
        <GatewayStatus view={view} />
        <Panel
          id="gateway-keys"
          title={t('staff.gateway_settings.keys')}
          description={t('staff.gateway_settings.keys_text')}
        >
          <GatewaySettingsForm view={view} onSaved={show} />
        </Panel>
      </div>
    </AdminPage>
  );
}

function SellingBadge({ selling }: { selling: boolean }) {
  const { t } = useTranslation();
  return (
    <span
      data-testid="gateway-status"
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${selling ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-100 text-slate-700'}`}
    >
      {t(selling ? 'staff.gateway_settings.selling' : 'staff.gateway_settings.off')}
    </span>
  );
}

const SOURCE_LABELS = {
  environment: 'staff.gateway_settings.source.environment',
  admin: 'staff.gateway_settings.source.admin',
  none: 'staff.gateway_settings.source.none',
} as const satisfies Record<GatewaySettingsView['source'], string>;

const WEBHOOK_HINTS = {
  stripe: 'staff.gateway_settings.webhook_hint.stripe',
  paypal: 'staff.gateway_settings.webhook_hint.paypal',
  appstore: 'staff.gateway_settings.webhook_hint.appstore',
  cryptomus: 'staff.gateway_settings.webhook_hint.cryptomus',
} as const satisfies Record<RealGatewayName, string>;

function GatewayStatus({ view }: { view: GatewaySettingsView }) {
  const { t } = useTranslation();
  const webhookId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(view.webhook_url);
      notify.success('staff.gateway_settings.copied');
    } catch {
      // Denied or unsupported (an insecure origin): the field can still be selected by hand.
      notify.danger('staff.gateway_settings.copy_failed');
    }
  };
  return (
    <Panel id="gateway-status" title={t('staff.gateway_settings.overview')}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-slate-500">{t('staff.gateway_settings.status')}</dt>
        <dd>
          <SellingBadge selling={view.enabled} />
        </dd>
        <dt className="text-slate-500">{t('staff.gateway_settings.keys_from')}</dt>
        <dd className="text-slate-900" data-testid="gateway-source">
          {t(SOURCE_LABELS[view.source])}
        </dd>
      </dl>
      {view.source === 'environment' && (
        <p
          className="mt-4 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="gateway-environment-note"
        >
          {t('staff.gateway_settings.environment_note')}
        </p>
      )}
      <div className="mt-6 flex flex-col gap-1">
        <label htmlFor={webhookId} className="text-sm font-medium text-slate-800">
          {t('staff.gateway_settings.webhook_url')}
        </label>
        <div className="flex gap-2">
          <input
            id={webhookId}
            readOnly
            value={view.webhook_url}
            aria-describedby={`${webhookId}-hint`}
            onFocus={(event) => event.currentTarget.select()}
            className="h-10 min-w-0 flex-1 rounded-lg border border-[#dfe1e6] bg-slate-50 px-3 font-mono text-xs text-slate-900 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30"
          />
          <Button
            variant="secondary"
            onClick={() => void copy()}
            aria-label={t('staff.gateway_settings.copy_webhook')}
          >
            {t('staff.gateway_settings.copy')}
          </Button>
        </div>
        <p id={`${webhookId}-hint`} className="text-xs text-slate-500">
          {t(WEBHOOK_HINTS[view.gateway])}
        </p>
      </div>
    </Panel>
  );
}
