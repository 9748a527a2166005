import { describe, expect, it } from 'vitest';
import { interfaceSetupLines, nodeStartCommand } from './node-setup.ts';

describe('node set-up', () => {
  it('starts the agent with the API address and the token', () => {
    expect(nodeStartCommand('https://vpn.example.com', 'vpnnode_abc-123')).toBe(
      'VPN_NODE_API_URL=https://vpn.example.com VPN_NODE_TOKEN=vpnnode_abc-123 VPN_NODE_INTERFACE=wg0 VPN_NODE_STATE_DIR=/var/lib/vpn-node npm run vpn-node',
    );
  });

  it('makes the interface with each of its addresses, then brings it up', () => {
    expect(interfaceSetupLines(['10.8.0.1/16', 'fd42:42:42::1/64'])).toEqual([
      'ip link add wg0 type wireguard',
      'ip address add 10.8.0.1/16 dev wg0',
      'ip address add fd42:42:42::1/64 dev wg0',
      'ip link set wg0 up',
    ]);
  });
});
