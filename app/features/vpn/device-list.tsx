import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeviceBlock, DevicesResponse, VpnDevice } from '#shared/contracts/vpn.ts';
import { FASTEST, type ServerStatus } from '#shared/vpn/fleet-rules.ts';
import { LinkButton } from '../../layout/link-button.tsx';
import { useAppConfig } from '../../lib/app-config-context.ts';
import { formatBytes, regionName } from '../../lib/traffic-format.ts';
import { Button } from '../../ui/button.tsx';
import { useLang } from '../auth/use-lang.ts';
import { formatRelative, formatVpnDate, formatVpnDateTime } from './vpn-format.ts';

export type DeviceAction = 'rename' | 'move' | 'rekey' | 'remove';

/** Where the customer asked the device to be: "Fastest", or the country's name. */
export function useLocationName(): (device: VpnDevice) => string {
  const { t } = useTranslation();
  const lang = useLang();
  return (device) => {
    if (device.location === FASTEST) return t('vpn.device.fastest');
    if (device.server?.country_code === device.location) return device.server.country_name;
    return regionName(device.location, lang);
  };
}

const BLOCKS: Record<DeviceBlock, string> = {
  no_access: 'vpn.device.blocked.no_access',
  blocked: 'vpn.device.blocked.blocked',
  traffic_limit: 'vpn.device.blocked.traffic_limit',
  device_limit: 'vpn.device.blocked.device_limit',
  no_server: 'vpn.device.blocked.no_server',
};

const STATUSES: Record<ServerStatus, string> = {
  new: 'vpn.device.server_status.new',
  online: 'vpn.device.server_status.online',
  offline: 'vpn.device.server_status.offline',
  maintenance: 'vpn.device.server_status.maintenance',
  draining: 'vpn.device.server_status.draining',
};

const STATUS_DOTS: Record<ServerStatus, string> = {
  new: 'bg-slate-400',
  online: 'bg-emerald-500',
  offline: 'bg-red-500',
  maintenance: 'bg-amber-500',
  draining: 'bg-amber-500',
};

/** Enabled, or paused: a word and a sign, the colour only repeats them. */
export function DeviceState({ device }: { device: VpnDevice }) {
  const { t } = useTranslation();
  return device.enabled ? (
    <span className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800">
      <span aria-hidden="true">✓</span>
      {t('vpn.device.enabled')}
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">
      <span aria-hidden="true">⏸</span>
      {t('vpn.device.paused')}
    </span>
  );
}

/** "Amsterdam, Netherlands · Online". */
export function ServerText({ device }: { device: VpnDevice }) {
  const { t } = useTranslation();
  const { server } = device;
  if (!server) return <>{t('vpn.device.no_server')}</>;
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2">
      <span>
        {server.city
          ? t('vpn.device.server_value', { city: server.city, country: server.country_name })
          : server.country_name}
      </span>
      <span className="inline-flex items-center gap-1 text-slate-600">
        <span aria-hidden="true" className={`size-2 rounded-full ${STATUS_DOTS[server.status]}`} />
        {t(STATUSES[server.status])}
      </span>
    </span>
  );
}

/** The list of the download page, each device with its details and actions. */
export function DeviceList({
  data,
  onAction,
}: {
  data: DevicesResponse;
  onAction: (action: DeviceAction, device: VpnDevice) => void;
}) {
  return (
    <ul className="divide-y divide-slate-100" data-testid="vpn-devices">
      {data.items.map((device) => (
        <DeviceItem
          key={device.device_id}
          device={device}
          resetsOn={data.usage.period_end}
          onAction={onAction}
        />
      ))}
    </ul>
  );
}

function BlockedReason({
  block,
  resetsOn,
  onMove,
}: {
  block: DeviceBlock;
  resetsOn: string;
  onMove: () => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const { features } = useAppConfig();
  return (
    <div
      className="flex flex-col gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950 sm:col-span-2 sm:flex-row sm:items-center sm:justify-between"
      data-testid="vpn-device-blocked"
      data-block={block}
    >
      <p>{t(BLOCKS[block], { date: formatVpnDate(resetsOn, lang) })}</p>
      {block === 'no_access' && features.includes('billing') && (
        <LinkButton name="billing.order2" className="shrink-0">
          {t('vpn.device.order')}
        </LinkButton>
      )}
      {block === 'no_server' && (
        <Button variant="secondary" className="shrink-0" onClick={onMove}>
          {t('vpn.device.move')}
        </Button>
      )}
    </div>
  );
}

function DeviceItem({
  device,
  resetsOn,
  onAction,
}: {
  device: VpnDevice;
  resetsOn: string;
  onAction: (action: DeviceAction, device: VpnDevice) => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const locationName = useLocationName();
  const name = device.name;
  const action = (kind: DeviceAction) => () => onAction(kind, device);
  const details: [string, ReactNode, string?][] = [
    [t('vpn.device.location'), locationName(device)],
    [t('vpn.device.server'), <ServerText key="server" device={device} />],
    [
      t('vpn.device.address'),
      device.address.length > 0 ? device.address.join(', ') : t('vpn.device.no_address'),
      'font-mono text-xs break-all',
    ],
    [
      t('vpn.device.traffic'),
      t('vpn.device.traffic_value', {
        rx: formatBytes(device.rx_bytes, lang),
        tx: formatBytes(device.tx_bytes, lang),
      }),
    ],
    [
      t('vpn.device.handshake'),
      device.latest_handshake_at ? (
        <time
          key="handshake"
          dateTime={device.latest_handshake_at}
          title={formatVpnDateTime(device.latest_handshake_at, lang)}
        >
          {formatRelative(device.latest_handshake_at, lang)}
        </time>
      ) : (
        t('vpn.device.never')
      ),
    ],
    [t('vpn.device.public_key'), device.public_key, 'font-mono text-xs break-all'],
  ];
  return (
    <li
      className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:grid sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center sm:gap-x-4"
      data-testid="vpn-device"
      data-device-id={device.device_id}
      data-enabled={device.enabled}
    >
      <h3 className="flex min-w-0 flex-wrap items-center gap-2 text-sm font-semibold text-slate-900">
        <span className="break-all">{name}</span>
        <DeviceState device={device} />
      </h3>
      {/* On a phone the actions come last, two by two; beside the name on wider screens. */}
      <div className="order-last grid grid-cols-2 gap-1 sm:order-none sm:-my-1 sm:flex sm:flex-wrap sm:justify-end">
        <Button
          variant="ghost"
          onClick={action('rename')}
          aria-label={t('vpn.device.rename_who', { name })}
        >
          {t('vpn.device.rename')}
        </Button>
        <Button
          variant="ghost"
          onClick={action('move')}
          aria-label={t('vpn.device.move_who', { name })}
        >
          {t('vpn.device.move')}
        </Button>
        <Button
          variant="ghost"
          onClick={action('rekey')}
          aria-label={t('vpn.device.rekey_who', { name })}
        >
          {t('vpn.device.rekey')}
        </Button>
        <Button
          variant="ghost"
          className="text-red-700 hover:bg-red-50"
          onClick={action('remove')}
          aria-label={t('vpn.device.remove_who', { name })}
        >
          {t('vpn.device.remove')}
        </Button>
      </div>
      {device.blocked_by && (
        <BlockedReason block={device.blocked_by} resetsOn={resetsOn} onMove={action('move')} />
      )}
      {device.config_changed_at && (
        <div
          className="flex flex-col gap-2 rounded-lg border border-sky-200 bg-sky-50 p-3 text-sm text-sky-950 sm:col-span-2 sm:flex-row sm:items-center sm:justify-between"
          data-testid="vpn-config-changed"
        >
          <p>
            {t('vpn.device.config_changed', {
              date: formatVpnDate(device.config_changed_at, lang),
            })}
          </p>
          <Button variant="secondary" className="shrink-0" onClick={action('rekey')}>
            {t('vpn.device.rekey')}
          </Button>
        </div>
      )}
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:col-span-2 sm:grid-cols-2">
        {details.map(([label, value, style]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className={`text-slate-900 ${style ?? ''}`}>{value}</dd>
          </div>
        ))}
      </dl>
    </li>
  );
}
