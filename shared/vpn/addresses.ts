// Tunnel address pools and endpoint hosts: parsing and arithmetic with no dependency, so the
// server (allocation), the contracts (validation) and the screens read one set of rules.
// Host number 1 of each pool is the server's own tunnel address; devices get 2 and up.

export interface Pool {
  family: 4 | 6;
  /** The network address as a number. */
  network: bigint;
  prefix: number;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function parseIPv4(text: string): bigint | null {
  if (!IPV4.test(text)) return null;
  return text.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);
}

export function parseIPv6(text: string): bigint | null {
  if (!/^[0-9a-fA-F:]{2,39}$/.test(text)) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  let value = 0n;
  for (const group of all) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(Number.parseInt(group, 16));
  }
  return value;
}

export function formatIPv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join('.');
}

/** RFC 5952 text: lower case, no leading zeros, the longest run of zero groups as `::`. */
export function formatIPv6(value: bigint): string {
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) =>
    Number((value >> shift) & 0xffffn),
  );
  let best = { at: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let end = i;
    while (end < 8 && groups[end] === 0) end += 1;
    if (end - i > best.length) best = { at: i, length: end - i };
    i = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.length < 2) return hex.join(':');
  const head = hex.slice(0, best.at).join(':');
  const tail = hex.slice(best.at + best.length).join(':');
  return `${head}::${tail}`;
}

/** Pools must leave room for a server and its devices, and not be absurdly large. */
export const POOL_PREFIX = { 4: { min: 8, max: 29 }, 6: { min: 48, max: 125 } } as const;

/** `10.8.0.0/16` or `fd42:42::/64`, the network address exact (no host bits set). */
export function parsePool(text: string, family: 4 | 6): Pool | null {
  const [address, prefixText, extra] = text.trim().split('/');
  if (address === undefined || prefixText === undefined || extra !== undefined) return null;
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  const { min, max } = POOL_PREFIX[family];
  if (prefix < min || prefix > max) return null;
  const network = family === 4 ? parseIPv4(address) : parseIPv6(address);
  if (network === null) return null;
  const bits = family === 4 ? 32n : 128n;
  const hostBits = bits - BigInt(prefix);
  if (network & ((1n << hostBits) - 1n)) return null;
  return { family, network, prefix };
}

export function formatPool(pool: Pool): string {
  const address = pool.family === 4 ? formatIPv4(pool.network) : formatIPv6(pool.network);
  return `${address}/${pool.prefix}`;
}

/**
 * The highest host number a pool hands out: the broadcast address of an IPv4 pool is left
 * out, and very large IPv6 pools are capped where a server's peers could never reach.
 */
export function lastHost(pool: Pool): number {
  const bits = (pool.family === 4 ? 32 : 128) - pool.prefix;
  const size = bits >= 31 ? 2 ** 31 : 2 ** bits;
  return Math.min(size - (pool.family === 4 ? 2 : 1), 2_000_000_000);
}

/** The address of host number `host` of the pool (1: the server itself). */
export function hostAddress(pool: Pool, host: number): string {
  const value = pool.network + BigInt(host);
  return pool.family === 4 ? formatIPv4(value) : formatIPv6(value);
}

/** One host's address as WireGuard's AllowedIPs and the client's Address name it. */
export function hostRoute(pool: Pool, host: number): string {
  return `${hostAddress(pool, host)}/${pool.family === 4 ? 32 : 128}`;
}

/** The server's own tunnel address with the pool's prefix, for its interface. */
export function serverInterfaceAddress(pool: Pool): string {
  return `${hostAddress(pool, 1)}/${pool.prefix}`;
}

const LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

/**
 * Where clients reach a server: a DNS name (RFC 1123 labels, a top-level label that is not
 * all digits) or an IPv4 or IPv6 address.
 */
export function isEndpointHost(text: string): boolean {
  if (parseIPv4(text) !== null || parseIPv6(text) !== null) return true;
  if (text.length > 253) return false;
  const labels = text.split('.');
  if (labels.length < 2) return false;
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return false;
  return labels.every((label) => LABEL.test(label));
}

/** A host as it stands in `Endpoint = host:port`: an IPv6 address in brackets. */
export function endpointText(host: string, port: number): string {
  return parseIPv6(host) === null ? `${host}:${port}` : `[${host}]:${port}`;
}

/** A DNS resolver address for clients: IPv4 or IPv6. */
export function isResolverAddress(text: string): boolean {
  return parseIPv4(text) !== null || parseIPv6(text) !== null;
}
