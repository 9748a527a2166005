import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DevicesResponse, VpnDevice } from '#shared/contracts/vpn.ts';
import { failureMessage } from '../../api/api-error.ts';
import { QueryProvider } from '../../api/query-provider.tsx';
import { titleKey } from '../../routes/route-titles.ts';
import { Button } from '../../ui/button.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { Panel } from '../../ui/panel.tsx';
import { AppsPanel } from './apps-panel.tsx';
import { useRekeyDevice, useRemoveDevice } from './device-actions.ts';
import { DeviceDialog, type DeviceDialogState } from './device-dialog.tsx';
import { type DeviceAction, DeviceList } from './device-list.tsx';
import { UsageSummary, useDeviceCount } from './usage-summary.tsx';
import { useVpnDevices } from './vpn-api.ts';
import { AccessNotice, LimitNotice } from './vpn-notices.tsx';

/** §2 download: the apps, and the customer's WireGuard devices with their configurations. */
export function DownloadPage() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
        {t(titleKey('download'))}
      </h1>
      <p className="mt-2 text-sm text-slate-600">{t('vpn.page.intro')}</p>
      <QueryProvider>
        <div className="mt-6 flex flex-col gap-6">
          <DevicesPanel />
          <AppsPanel />
        </div>
      </QueryProvider>
    </div>
  );
}

type AddBlock = 'no_access' | 'blocked' | 'limit';

/** Why no device can be added now, if so: the button says it beside itself. */
export function addBlock(data: DevicesResponse): AddBlock | null {
  if (data.access.blocked) return 'blocked';
  if (!data.access.active) return 'no_access';
  if (data.items.length >= data.device_limit) return 'limit';
  return null;
}

const ADD_BLOCKS: Record<AddBlock, string> = {
  no_access: 'vpn.devices.add_disabled.no_access',
  blocked: 'vpn.devices.add_disabled.blocked',
  limit: 'vpn.devices.add_disabled.limit',
};

function DevicesPanel() {
  const { t } = useTranslation();
  const devices = useVpnDevices();
  const count = useDeviceCount();
  const remove = useRemoveDevice();
  const rekey = useRekeyDevice();
  const reasonId = useId();
  const [dialog, setDialog] = useState<DeviceDialogState | null>(null);

  const onAction = async (action: DeviceAction, device: VpnDevice) => {
    if (action === 'remove') await remove(device);
    else if (action === 'rekey') {
      const shown = await rekey(device);
      if (shown) setDialog({ kind: 'config', shown });
    } else setDialog({ kind: action, device });
  };

  const data = devices.data;
  const blocked = data ? addBlock(data) : null;
  return (
    <Panel
      id="vpn-devices"
      title={t('vpn.devices.title')}
      description={
        data && (
          <span data-testid="vpn-device-count">{count(data.items.length, data.device_limit)}</span>
        )
      }
      actions={
        <Button
          onClick={() => setDialog({ kind: 'add' })}
          disabled={!data || blocked !== null}
          aria-describedby={blocked ? reasonId : undefined}
        >
          {t('vpn.devices.add')}
        </Button>
      }
    >
      {devices.isPending ? (
        <div role="status" aria-busy="true" className="flex flex-col gap-3">
          <span className="sr-only">{t('vpn.devices.loading')}</span>
          <div aria-hidden="true" className="h-4 w-full animate-pulse rounded bg-slate-200" />
          <div aria-hidden="true" className="h-4 w-2/3 animate-pulse rounded bg-slate-200" />
          <div aria-hidden="true" className="h-4 w-5/6 animate-pulse rounded bg-slate-200" />
        </div>
      ) : devices.isError ? (
        <div
          role="alert"
          className="flex flex-col items-start gap-3 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800"
        >
          <p className="font-medium">{t('vpn.devices.load_failed')}</p>
          <p>{t(failureMessage(devices.error))}</p>
          <Button variant="secondary" onClick={() => devices.refetch()}>
            {t('vpn.devices.retry')}
          </Button>
        </div>
      ) : (
        <div className="flex flex-col gap-5">
          <AccessNotice access={devices.data.access} />
          <LimitNotice usage={devices.data.usage} />
          {blocked && (
            // The notice above already says why for no access or a block: then only the
            // button's description, for screen readers.
            <p
              id={reasonId}
              className={blocked === 'limit' ? 'text-sm text-slate-600' : 'sr-only'}
              data-testid="vpn-add-blocked"
            >
              {t(ADD_BLOCKS[blocked])}
            </p>
          )}
          <section aria-labelledby={`${reasonId}-usage`}>
            <h3 id={`${reasonId}-usage`} className="mb-2 text-sm font-semibold text-slate-900">
              {t('vpn.usage.title')}
            </h3>
            <UsageSummary usage={devices.data.usage} />
          </section>
          {devices.data.items.length === 0 ? (
            <EmptyState
              className="py-6"
              title={t('vpn.devices.empty_title')}
              text={t('vpn.devices.empty_text')}
            />
          ) : (
            <div className="border-t border-slate-100 pt-4">
              <DeviceList data={devices.data} onAction={onAction} />
            </div>
          )}
        </div>
      )}
      <DeviceDialog state={dialog} onState={setDialog} />
    </Panel>
  );
}
