import { useTranslation } from 'react-i18next';
import type { VpnDevice } from '#shared/contracts/vpn.ts';
import { confirm } from '../../ui/confirm.ts';
import { notify } from '../../ui/toast.tsx';
import { deleteDevice, type ShownConfig, useKeyedCalls, useVpnCache } from './vpn-api.ts';

/**
 * Removes a device after a confirmation: the download page's and the security page's alike.
 *
 * No password is asked, unlike signing a browser out (§4 devices): a removal only takes
 * access away, from the owner's own device, and the owner can add it back in a minute. A
 * browser left signed in elsewhere is a way into the account; a WireGuard peer is not (it
 * reaches the internet, never the account), so the password would guard nothing here.
 */
export function useRemoveDevice() {
  const { t } = useTranslation();
  const cache = useVpnCache();
  return (device: VpnDevice) =>
    confirm({
      title: t('vpn.remove.title', { name: device.name }),
      text: t('vpn.remove.text'),
      icon: 'danger',
      actionName: 'vpn-device-remove',
      data: device,
      yes: { label: t('vpn.remove.action'), variant: 'danger' },
      onConfirm: async (_password, target) => {
        if (!target) return;
        await deleteDevice(target.device_id);
        cache.drop(target.device_id);
        notify.success('vpn.toasts.removed', { values: { name: target.name } });
        void cache.refresh();
      },
    });
}

/**
 * A new key for a device after a confirmation (its configuration on the device stops
 * working): answers the new configuration to show, or null when the customer kept the old.
 */
export function useRekeyDevice() {
  const { t } = useTranslation();
  const cache = useVpnCache();
  const keyed = useKeyedCalls();
  return async (device: VpnDevice): Promise<ShownConfig | null> => {
    let shown: ShownConfig | null = null;
    const confirmed = await confirm({
      title: t('vpn.rekey.title', { name: device.name }),
      text: t('vpn.rekey.text'),
      icon: 'warning',
      actionName: 'vpn-device-rekey',
      yes: { label: t('vpn.rekey.action') },
      onConfirm: async () => {
        shown = await keyed.rekey(device.device_id);
        cache.put(shown.device);
        notify.success('vpn.toasts.rekeyed', { values: { name: shown.device.name } });
        void cache.refresh();
      },
    });
    return confirmed ? shown : null;
  };
}
