// What staff run on a new VPN host, built from the server's detail (vpn-node/config.ts reads
// these variables; DESIGN "VPN provisioning"). The token appears only in the start command
// shown right after it was made: it is stored hashed and cannot be shown again.

export const NODE_INTERFACE = 'wg0';
export const NODE_STATE_DIR = '/var/lib/vpn-node';

/** The one line that starts the node's agent with its enrollment token. */
export function nodeStartCommand(nodeApiUrl: string, token: string): string {
  return [
    `VPN_NODE_API_URL=${nodeApiUrl}`,
    `VPN_NODE_TOKEN=${token}`,
    `VPN_NODE_INTERFACE=${NODE_INTERFACE}`,
    `VPN_NODE_STATE_DIR=${NODE_STATE_DIR}`,
    'npm run vpn-node',
  ].join(' ');
}

/** The interface the agent drives, made once as root: the server's own tunnel addresses. */
export function interfaceSetupLines(addresses: readonly string[]): string[] {
  return [
    `ip link add ${NODE_INTERFACE} type wireguard`,
    ...addresses.map((address) => `ip address add ${address} dev ${NODE_INTERFACE}`),
    `ip link set ${NODE_INTERFACE} up`,
  ];
}
