import type { DeviceBlock } from '#shared/contracts/vpn.ts';

/** What decides a device's block: the account's standing, then its own place. */
export interface BlockInputs {
  /** Staff blocked the account (first: it says the most). */
  blocked: boolean;
  /** The ledger gives access now (and the account is not deactivated). */
  access: boolean;
  /** The billing period's traffic limit is reached. */
  limitReached: boolean;
  deviceLimit: number;
}

/**
 * Why each device's peer is kept off its server, or null where it may be on, for devices in
 * the order they were added: past the device limit the newest wait (a downgrade disables,
 * never deletes), and a device without a server cannot be on one.
 */
export function deviceBlocks(
  devices: readonly { serverId: number | null }[],
  inputs: BlockInputs,
): (DeviceBlock | null)[] {
  const account: DeviceBlock | null = inputs.blocked
    ? 'blocked'
    : !inputs.access
      ? 'no_access'
      : inputs.limitReached
        ? 'traffic_limit'
        : null;
  return devices.map((device, index) => {
    if (account) return account;
    if (index >= inputs.deviceLimit) return 'device_limit';
    return device.serverId === null ? 'no_server' : null;
  });
}
