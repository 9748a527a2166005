import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../../api/api-error.ts';
import { LinkButton } from '../../layout/link-button.tsx';
import { Button } from '../../ui/button.tsx';
import { FormError } from '../../ui/form-field.tsx';
import { LoadingBlock } from '../../ui/spinner.tsx';
import { useRemoveDevice } from '../vpn/device-actions.ts';
import { DeviceState, ServerText, useLocationName } from '../vpn/device-list.tsx';
import { useVpnDevices } from '../vpn/vpn-api.ts';

/**
 * The customer's WireGuard devices beside the signed-in browsers: each can be removed here
 * with the download page's own confirmation (no password, see useRemoveDevice); adding,
 * moving and new keys stay on the download page, where configurations are shown.
 */
export function VpnDevicesGroup() {
  const { t } = useTranslation();
  const headingId = useId();
  const devices = useVpnDevices();
  const remove = useRemoveDevice();
  const locationName = useLocationName();
  return (
    <section aria-labelledby={headingId} data-testid="account-vpn-devices">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h3 id={headingId} className="text-sm font-semibold text-slate-900">
            {t('vpn.security.vpn_title')}
          </h3>
          <p className="mt-1 text-sm text-slate-600">{t('vpn.security.vpn_text')}</p>
        </div>
        <LinkButton name="download" className="shrink-0">
          {t('vpn.security.manage')}
        </LinkButton>
      </div>
      <div className="mt-4">
        {devices.isPending ? (
          <LoadingBlock className="py-6" />
        ) : devices.isError ? (
          <div className="flex flex-col items-start gap-3">
            <FormError message={failureMessage(devices.error)} />
            <Button variant="secondary" onClick={() => devices.refetch()}>
              {t('vpn.devices.retry')}
            </Button>
          </div>
        ) : devices.data.items.length === 0 ? (
          <p className="text-sm text-slate-500">{t('vpn.security.empty')}</p>
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="vpn-devices">
            {devices.data.items.map((device) => (
              <li
                key={device.device_id}
                className="flex flex-wrap items-center justify-between gap-3 py-3"
                data-testid="vpn-device"
              >
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                    <span className="break-all">{device.name}</span>
                    <DeviceState device={device} />
                  </p>
                  <p className="mt-0.5 flex flex-wrap gap-x-2 text-xs text-slate-500">
                    <span>{locationName(device)}</span>
                    <span aria-hidden="true">·</span>
                    <ServerText device={device} />
                  </p>
                </div>
                <Button
                  variant="ghost"
                  className="text-red-700 hover:bg-red-50"
                  onClick={() => remove(device)}
                  aria-label={t('vpn.device.remove_who', { name: device.name })}
                >
                  {t('vpn.device.remove')}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
