import { PERSISTENT_KEEPALIVE_S } from './fleet-rules.ts';

/** Everything of a device's `.conf` but its private key, which only the device holds. */
export interface ConfigParts {
  /** The device's tunnel addresses, `10.8.0.5/32` and `fd42::5/128`. */
  address: string[];
  dns: string[];
  peer: {
    public_key: string;
    /** `host:port`, an IPv6 host in brackets. */
    endpoint: string;
    allowed_ips: string[];
    persistent_keepalive: number;
  };
}

/** What a device sends everything through: the whole IPv4 and IPv6 internet. */
export const FULL_TUNNEL = ['0.0.0.0/0', '::/0'] as const;
export const DEFAULT_KEEPALIVE = PERSISTENT_KEEPALIVE_S;

/**
 * The `.conf` text that wg-quick and the WireGuard apps read (INI sections, one `Key =
 * value` per line). A private key is 44 base64 characters, so nothing here needs quoting.
 */
export function renderWireGuardConfig(parts: ConfigParts, privateKey: string): string {
  return [
    '[Interface]',
    `PrivateKey = ${privateKey}`,
    `Address = ${parts.address.join(', ')}`,
    ...(parts.dns.length > 0 ? [`DNS = ${parts.dns.join(', ')}`] : []),
    '',
    '[Peer]',
    `PublicKey = ${parts.peer.public_key}`,
    `Endpoint = ${parts.peer.endpoint}`,
    `AllowedIPs = ${parts.peer.allowed_ips.join(', ')}`,
    `PersistentKeepalive = ${parts.peer.persistent_keepalive}`,
    '',
  ].join('\n');
}

/** A file name the apps accept as a tunnel name (15 characters, no spaces on Linux). */
export function configFileName(deviceName: string): string {
  const base = deviceName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_=+.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 15);
  return `${base || 'wireguard'}.conf`;
}
